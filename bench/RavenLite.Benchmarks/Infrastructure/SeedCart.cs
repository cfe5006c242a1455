using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Infrastructure;

/// <summary>testdata/seed-cart.bson, linked into the output: metadata BSON (33 bytes), then data BSON (702 bytes).</summary>
internal static class SeedCart
{
    private const int MetadataLength = 33;

    public const string Key = "carts/666";

    /// <summary>The <c>cartId</c> field of the seed cart's data.</summary>
    public const long CartId = 666;

    public static byte[] Bytes { get; } = File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "Data", "seed-cart.bson"));

    public static ReadOnlyMemory<byte> Metadata => Bytes.AsMemory(0, MetadataLength);

    public static ReadOnlyMemory<byte> Data => Bytes.AsMemory(MetadataLength);

    public static BatchCommand Put(string key) =>
        BatchCommand.Put(key, DocumentContent.FromBson(Data.Span), DocumentContent.FromBson(Metadata.Span));
}
