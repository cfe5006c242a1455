using System.Buffers.Binary;

namespace RavenLite.Storage.Documents;

/// <summary>
/// Walks BSON's structure (element types and every length) before any decoder trusts it, so a hostile
/// length cannot make a reader allocate or run past the buffer.
/// </summary>
internal static class BsonStructure
{
    /// <returns>A description of the first problem, or null when the structure is sound.</returns>
    public static string? FindError(ReadOnlySpan<byte> bson) => Document(bson, 0);

    private static string? Document(ReadOnlySpan<byte> doc, int depth)
    {
        if (depth >= DocumentContent.MaxDepth) // the root is at depth 0
            return $"nested deeper than {DocumentContent.MaxDepth} levels";
        if (doc.Length < 5 || BinaryPrimitives.ReadInt32LittleEndian(doc) != doc.Length || doc[^1] != 0)
            return "an embedded document's length does not match its content";
        var body = doc[4..^1];
        while (!body.IsEmpty)
        {
            var type = body[0];
            var nameEnd = body[1..].IndexOf((byte)0);
            if (nameEnd < 0)
                return "an element name is not terminated";
            body = body[(2 + nameEnd)..];
            var size = ValueSize(type, body, depth, out var error);
            if (error is not null)
                return error;
            body = body[size..];
        }
        return null;
    }

    private static int ValueSize(byte type, ReadOnlySpan<byte> rest, int depth, out string? error)
    {
        error = null;
        int size;
        switch (type)
        {
            case 0x06 or 0x0A or 0x7F or 0xFF: return 0;                       // undefined, null, max/min key
            case 0x08: size = 1; break;                                         // boolean
            case 0x10: size = 4; break;                                         // int32
            case 0x01 or 0x09 or 0x11 or 0x12: size = 8; break;                 // double, date, timestamp, int64
            case 0x07: size = 12; break;                                        // ObjectId
            case 0x13: size = 16; break;                                        // decimal128
            case 0x02 or 0x0D or 0x0E: size = StringSize(rest, out error); break; // string, code, symbol
            case 0x05:                                                          // binary: length, subtype, bytes
                size = rest.Length >= 4 ? 5 + BinaryPrimitives.ReadInt32LittleEndian(rest) : -1;
                if (size is >= 5 and not 5 + 16 && rest.Length >= 5 && rest[4] == 4)
                    error = "a UUID binary (subtype 4) is not 16 bytes long";
                break;
            case 0x03 or 0x04:                                                  // document, array
                size = rest.Length >= 4 ? BinaryPrimitives.ReadInt32LittleEndian(rest) : -1;
                if (size >= 5 && size <= rest.Length)
                    error = Document(rest[..size], depth + 1);
                break;
            case 0x0B:                                                          // regex: two C strings
                var first = rest.IndexOf((byte)0);
                var second = first < 0 ? -1 : rest[(first + 1)..].IndexOf((byte)0);
                size = second < 0 ? -1 : first + second + 2;
                break;
            default:
                error = $"unsupported element type 0x{type:X2}";
                return 0;
        }
        if (error is null && (size < 0 || size > rest.Length))
            error = $"an element of type 0x{type:X2} runs past the end of the document";
        return size;
    }

    private static int StringSize(ReadOnlySpan<byte> rest, out string? error)
    {
        error = null;
        if (rest.Length < 4)
            return -1;
        var length = BinaryPrimitives.ReadInt32LittleEndian(rest);
        if (length < 1 || length > rest.Length - 4)
            return -1;
        if (rest[4 + length - 1] != 0)
            error = "a string is not terminated";
        return 4 + length;
    }
}
