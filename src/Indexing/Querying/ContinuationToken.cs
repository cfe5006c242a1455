using System.Buffers.Binary;
using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// The search-after token: the last hit of a page (its doc id and sort values), bound to the query, sort and
/// build of the index it came from. Base64url of
/// <c>version (1) | query fingerprint (8) | index generation (16) | doc id (8) | value count (1) | per value: length + 1 (2, 0 = none) and bytes</c>.
/// </summary>
internal static class ContinuationToken
{
    private const byte Version = 1;
    private const int HeaderLength = 1 + 8 + 16 + 8 + 1;

    /// <summary>Identifies a query: index, query text and sort.</summary>
    public static byte[] Fingerprint(string indexName, string? query, SortField[] sort)
    {
        var text = $"{indexName.ToLowerInvariant()}\n{query}\n{string.Join(',', sort)}";
        return SHA256.HashData(Encoding.UTF8.GetBytes(text)).AsSpan(0, 8).ToArray();
    }

    public static string Encode(byte[] fingerprint, Guid generation, Hit last)
    {
        var length = HeaderLength;
        foreach (var value in last.SortValues)
            length += 2 + (value?.Length ?? 0);
        var bytes = new byte[length];
        var span = bytes.AsSpan();
        span[0] = Version;
        fingerprint.CopyTo(span[1..]);
        generation.TryWriteBytes(span[9..]);
        BinaryPrimitives.WriteInt64BigEndian(span[25..], last.DocId);
        span[33] = (byte)last.SortValues.Length;
        var at = HeaderLength;
        foreach (var value in last.SortValues)
        {
            BinaryPrimitives.WriteUInt16BigEndian(span[at..], (ushort)(value is null ? 0 : value.Length + 1));
            value?.CopyTo(span[(at + 2)..]);
            at += 2 + (value?.Length ?? 0);
        }
        return Base64Url.EncodeToString(bytes);
    }

    /// <exception cref="ArgumentException">The token is malformed, or belongs to another query, sort or build of the index.</exception>
    public static Hit Decode(string token, byte[] fingerprint, Guid generation, int sortCount)
    {
        byte[] bytes;
        try
        {
            bytes = Base64Url.DecodeFromChars(token);
        }
        catch (FormatException ex)
        {
            throw new ArgumentException(MalformedMessage, nameof(token), ex);
        }
        if (bytes.Length < HeaderLength || bytes[0] != Version)
            throw new ArgumentException(MalformedMessage, nameof(token));
        var span = bytes.AsSpan();
        if (!span.Slice(1, 8).SequenceEqual(fingerprint) || new Guid(span.Slice(9, 16)) != generation || span[33] != sortCount)
        {
            throw new ArgumentException(
                "The continuation token belongs to a different query or sort, or to an earlier build of the index " +
                "(it was reset or its definition changed). Start again without a continuation.", nameof(token));
        }
        var values = new byte[]?[sortCount];
        var at = HeaderLength;
        for (var i = 0; i < sortCount; i++)
        {
            if (at + 2 > span.Length)
                throw new ArgumentException(MalformedMessage, nameof(token));
            var lengthPlusOne = BinaryPrimitives.ReadUInt16BigEndian(span[at..]);
            at += 2;
            if (lengthPlusOne == 0)
                continue;
            if (at + lengthPlusOne - 1 > span.Length)
                throw new ArgumentException(MalformedMessage, nameof(token));
            values[i] = span.Slice(at, lengthPlusOne - 1).ToArray();
            at += lengthPlusOne - 1;
        }
        if (at != span.Length)
            throw new ArgumentException(MalformedMessage, nameof(token));
        return new Hit(BinaryPrimitives.ReadInt64BigEndian(span[25..]), values);
    }

    private const string MalformedMessage = "The continuation token is not one this database issued (it is malformed or cut short).";
}
