namespace RavenLite.Storage.Caching;

/// <summary>
/// What managed objects cost on a 64-bit runtime, for charging cache entries honestly.
/// Object header and method-table pointer: 16 bytes; everything is aligned to 8 bytes.
/// </summary>
internal static class ManagedSize
{
    /// <summary>A <c>JsonDocument</c> object itself, without its buffers (measured on .NET 10: 72-80).</summary>
    private const int JsonDocumentInstance = 80;

    /// <summary>One row of a <c>JsonDocument</c>'s token table.</summary>
    private const int JsonDocumentRowBytes = 12;

    /// <summary>Header, length and padding: a <c>byte[]</c> of length 0 is 24 bytes.</summary>
    public static long ByteArray(long length) => Align(24 + length);

    /// <summary>Header, length, UTF-16 characters and the terminating null.</summary>
    public static long String(int length) => Align(22 + 2L * length);

    /// <summary>
    /// What <c>JsonDocument.Parse(ReadOnlyMemory)</c> keeps: the object, and a token table (12 bytes a token)
    /// rented from the shared array pool, which first rents text length + 12 bytes and doubles until the
    /// tokens fit, in power-of-two buckets. The text itself is not copied.
    /// </summary>
    public static long ParsedJson(int textLength, int tokens)
    {
        var needed = Math.Max(textLength + JsonDocumentRowBytes, (long)tokens * JsonDocumentRowBytes);
        var rented = needed <= 16 ? 16 : (long)System.Numerics.BitOperations.RoundUpToPowerOf2((ulong)needed);
        return JsonDocumentInstance + ByteArray(rented);
    }

    public static long Align(long size) => (size + 7) & ~7L;
}
