using System.Buffers.Binary;

namespace RavenLite.Indexing.Codecs;

/// <summary>
/// Keys of the postings table: <c>field ordinal (1) | term | doc id (8, big-endian)</c>. The part before the
/// doc id (the "field term") identifies a term of a field; its postings are the keys it prefixes.
/// </summary>
internal static class PostingKeys
{
    public const int DocIdLength = 8;

    public static byte[] FieldTerm(int ordinal, ReadOnlySpan<byte> term)
    {
        var key = new byte[1 + term.Length];
        key[0] = (byte)ordinal;
        term.CopyTo(key.AsSpan(1));
        return key;
    }

    public static byte[] Posting(ReadOnlySpan<byte> fieldTerm, long docId)
    {
        var key = new byte[fieldTerm.Length + DocIdLength];
        fieldTerm.CopyTo(key);
        BinaryPrimitives.WriteInt64BigEndian(key.AsSpan(fieldTerm.Length), docId);
        return key;
    }

    public static long DocId(ReadOnlySpan<byte> postingKey) => BinaryPrimitives.ReadInt64BigEndian(postingKey[^DocIdLength..]);

    /// <summary>The term of a posting key: between the ordinal and the doc id.</summary>
    public static ReadOnlySpan<byte> Term(ReadOnlySpan<byte> postingKey) => postingKey[1..^DocIdLength];

    public static byte[] DocIdKey(long docId)
    {
        var key = new byte[DocIdLength];
        BinaryPrimitives.WriteInt64BigEndian(key, docId);
        return key;
    }

    public static long ReadDocIdKey(ReadOnlySpan<byte> key) => BinaryPrimitives.ReadInt64BigEndian(key);
}
