namespace RavenLite.Indexing.Codecs;

/// <summary>Compares byte arrays by content: equality for dictionaries, unsigned order for sorting.</summary>
internal sealed class ByteArrayComparer : IEqualityComparer<byte[]>, IComparer<byte[]>
{
    public static ByteArrayComparer Instance { get; } = new();

    public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

    public int GetHashCode(byte[] obj)
    {
        var hash = new HashCode();
        hash.AddBytes(obj);
        return hash.ToHashCode();
    }

    public int Compare(byte[]? x, byte[]? y) => x.AsSpan().SequenceCompareTo(y);
}
