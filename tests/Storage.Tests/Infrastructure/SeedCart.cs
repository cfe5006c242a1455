namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>The seed cart from testdata/seed-cart.bson: metadata BSON (33 bytes) then data BSON (702 bytes).</summary>
public static class SeedCart
{
    public const int MetadataLength = 33;

    public static byte[] Bytes { get; } = File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "Data", "seed-cart.bson"));

    public static ReadOnlySpan<byte> Metadata => Bytes.AsSpan(0, MetadataLength);

    public static ReadOnlySpan<byte> Data => Bytes.AsSpan(MetadataLength);
}
