using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Infrastructure;

/// <summary>testdata/seed-cart.bson: metadata BSON (bytes 0..32, Raven-Entity-Name Item), then the cart's data BSON.</summary>
internal static class SeedCart
{
    private static readonly byte[] s_bytes = File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "Data", "seed-cart.bson"));

    public static DocumentContent Metadata { get; } = DocumentContent.FromBson(s_bytes.AsSpan(0, 33));

    public static DocumentContent Data { get; } = DocumentContent.FromBson(s_bytes.AsSpan(33));
}
