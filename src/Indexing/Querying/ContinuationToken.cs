using System.Buffers.Binary;
using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text;
using Lucene.Net.Util;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// The search-after token: where a page ended (<see cref="PageAfter"/>), bound to the query, sort and build of the
/// index it came from. Base64url of
/// <c>version (1) | query fingerprint (8) | index generation (16) | etag (8) | value count (1) | per value: kind (1: 0 none, 1 string, 2 long, 3 double) and its bytes (string: length (2) + UTF-8; numbers: 8)</c>.
/// </summary>
internal static class ContinuationToken
{
    private const byte Version = 2;
    private const int HeaderLength = 1 + 8 + 16 + 8 + 1;
    private const byte None = 0, Bytes = 1, Long = 2, Double = 3;

    /// <summary>Identifies a query: index, query text and sort.</summary>
    public static byte[] Fingerprint(string indexName, string? query, SortField[] sort)
    {
        var text = $"{indexName.ToLowerInvariant()}\n{query}\n{string.Join(',', sort)}";
        return SHA256.HashData(Encoding.UTF8.GetBytes(text)).AsSpan(0, 8).ToArray();
    }

    public static string Encode(byte[] fingerprint, Guid generation, PageAfter last)
    {
        var bytes = new List<byte>(HeaderLength + 16) { Version };
        bytes.AddRange(fingerprint);
        bytes.AddRange(generation.ToByteArray());
        AddInt64(bytes, last.Etag);
        bytes.Add((byte)last.SortValues.Length);
        foreach (var value in last.SortValues)
        {
            switch (value)
            {
                case BytesRef text:
                    bytes.Add(Bytes);
                    bytes.Add((byte)(text.Length >> 8));
                    bytes.Add((byte)text.Length);
                    bytes.AddRange(text.Bytes.AsSpan(text.Offset, text.Length));
                    break;
                case J2N.Numerics.Int64 whole:
                    bytes.Add(Long);
                    AddInt64(bytes, whole.ToInt64());
                    break;
                case J2N.Numerics.Double number:
                    bytes.Add(Double);
                    AddInt64(bytes, BitConverter.DoubleToInt64Bits(number.ToDouble()));
                    break;
                default:
                    bytes.Add(None);
                    break;
            }
        }
        return Base64Url.EncodeToString([.. bytes]);
    }

    /// <exception cref="ArgumentException">The token is malformed, or belongs to another query, sort or build of the index.</exception>
    public static PageAfter Decode(string token, byte[] fingerprint, Guid generation, SortField[] sort)
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
        if (!span.Slice(1, 8).SequenceEqual(fingerprint) || new Guid(span.Slice(9, 16)) != generation || span[33] != sort.Length)
        {
            throw new ArgumentException(
                "The continuation token belongs to a different query or sort, or to an earlier build of the index " +
                "(it was reset or its definition changed). Start again without a continuation.", nameof(token));
        }
        var values = new object?[sort.Length];
        var at = HeaderLength;
        for (var i = 0; i < sort.Length; i++)
        {
            if (at >= span.Length)
                throw new ArgumentException(MalformedMessage, nameof(token));
            var kind = span[at++];
            values[i] = kind switch
            {
                None => null,
                Bytes when sort[i].Kind is FieldSort.String => ReadBytes(span, ref at),
                Long when sort[i].Kind is FieldSort.Long => J2N.Numerics.Int64.GetInstance(ReadInt64(span, ref at)),
                Double when sort[i].Kind is FieldSort.Double => J2N.Numerics.Double.GetInstance(BitConverter.Int64BitsToDouble(ReadInt64(span, ref at))),
                _ => throw new ArgumentException(MalformedMessage, nameof(token)),
            };
        }
        if (at != span.Length)
            throw new ArgumentException(MalformedMessage, nameof(token));
        return new PageAfter(BinaryPrimitives.ReadInt64BigEndian(span[25..]), values);
    }

    private static void AddInt64(List<byte> bytes, long value)
    {
        Span<byte> buffer = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(buffer, value);
        bytes.AddRange(buffer);
    }

    private static long ReadInt64(ReadOnlySpan<byte> span, ref int at)
    {
        if (at + 8 > span.Length)
            throw new ArgumentException(MalformedMessage, nameof(span));
        var value = BinaryPrimitives.ReadInt64BigEndian(span[at..]);
        at += 8;
        return value;
    }

    private static BytesRef ReadBytes(ReadOnlySpan<byte> span, ref int at)
    {
        if (at + 2 > span.Length)
            throw new ArgumentException(MalformedMessage, nameof(span));
        var length = (span[at] << 8) | span[at + 1];
        at += 2;
        if (at + length > span.Length)
            throw new ArgumentException(MalformedMessage, nameof(span));
        var value = new BytesRef(span.Slice(at, length).ToArray());
        at += length;
        return value;
    }

    private const string MalformedMessage = "The continuation token is not one this database issued (it is malformed or cut short).";
}
