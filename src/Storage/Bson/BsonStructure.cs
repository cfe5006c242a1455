using System.Buffers.Binary;
using System.Text;
using System.Text.Unicode;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

/// <summary>
/// Walks BSON's structure (element types and every length) before any decoder trusts it, so a hostile
/// length cannot make a reader allocate or run past the buffer; and refuses what the BSON specification
/// forbids but lenient readers accept: a boolean byte other than 0x00 or 0x01, and names or text (string,
/// JavaScript code, symbol, regular expression) that are not UTF-8.
/// </summary>
internal static class BsonStructure
{
    /// <returns>A description of the first problem, naming the element it is in, or null when the BSON is sound.</returns>
    public static string? FindError(ReadOnlySpan<byte> bson) => Document(bson, 0)?.Describe();

    /// <summary>The string member <paramref name="name"/> of a sound BSON object's top level (see <see cref="FindError"/>), if any.</summary>
    public static string? TopLevelString(ReadOnlySpan<byte> bson, string name)
    {
        Span<byte> wanted = stackalloc byte[256];
        if (!Encoding.UTF8.TryGetBytes(name, wanted, out var wantedLength))
            throw new ArgumentException("The name is longer than 256 bytes as UTF-8.", nameof(name));
        wanted = wanted[..wantedLength];
        var body = bson[4..^1];
        while (!body.IsEmpty)
        {
            var type = body[0];
            var nameEnd = body[1..].IndexOf((byte)0);
            var found = body.Slice(1, nameEnd).SequenceEqual(wanted);
            body = body[(2 + nameEnd)..];
            if (found)
                return type == 0x02 ? Encoding.UTF8.GetString(body.Slice(4, BinaryPrimitives.ReadInt32LittleEndian(body) - 1)) : null;
            body = body[ValueSize(type, body, 1, out _)..];
        }
        return null;
    }

    private static Problem? Document(ReadOnlySpan<byte> doc, int depth)
    {
        if (depth >= DocumentContent.MaxDepth) // the root is at depth 0
            return new Problem(null, $"nested deeper than {DocumentContent.MaxDepth} levels");
        if (doc.Length < 5 || BinaryPrimitives.ReadInt32LittleEndian(doc) != doc.Length || doc[^1] != 0)
            return new Problem(null, "an embedded document's length does not match its content");
        var body = doc[4..^1];
        while (!body.IsEmpty)
        {
            var type = body[0];
            var nameEnd = body[1..].IndexOf((byte)0);
            if (nameEnd < 0)
                return new Problem(null, "an element name is not terminated");
            var name = body.Slice(1, nameEnd);
            body = body[(2 + nameEnd)..];
            var problem = Utf8.IsValid(name) ? null : new Problem(null, "its name is not UTF-8");
            var size = problem is null ? ValueSize(type, body, depth, out problem) : 0;
            if (problem is not null)
                return problem.Within(name);
            body = body[size..];
        }
        return null;
    }

    private static int ValueSize(byte type, ReadOnlySpan<byte> rest, int depth, out Problem? problem)
    {
        problem = null;
        int size;
        switch (type)
        {
            case 0x06 or 0x0A or 0x7F or 0xFF: return 0;                       // undefined, null, max/min key
            case 0x08:                                                          // boolean
                size = 1;
                if (rest.Length >= 1 && rest[0] > 1)
                    problem = new Problem(null, $"a boolean whose byte is 0x{rest[0]:X2}, not 0x00 (false) or 0x01 (true)");
                break;
            case 0x10: size = 4; break;                                         // int32
            case 0x01 or 0x09 or 0x11 or 0x12: size = 8; break;                 // double, date, timestamp, int64
            case 0x07: size = 12; break;                                        // ObjectId
            case 0x13: size = 16; break;                                        // decimal128
            case 0x02 or 0x0D or 0x0E: size = StringSize(type, rest, out problem); break; // string, code, symbol
            case 0x05:                                                          // binary: length, subtype, bytes
                size = rest.Length >= 4 ? 5 + BinaryPrimitives.ReadInt32LittleEndian(rest) : -1;
                if (size is >= 5 and not 5 + 16 && rest.Length >= 5 && rest[4] == 4)
                    problem = new Problem(null, "a UUID binary (subtype 4) is not 16 bytes long");
                break;
            case 0x03 or 0x04:                                                  // document, array
                size = rest.Length >= 4 ? BinaryPrimitives.ReadInt32LittleEndian(rest) : -1;
                if (size >= 5 && size <= rest.Length)
                    problem = Document(rest[..size], depth + 1);
                break;
            case 0x0B:                                                          // regex: two C strings
                size = RegexSize(rest, out problem);
                break;
            default:
                problem = new Problem(null, $"unsupported element type 0x{type:X2}");
                return 0;
        }
        if (problem is null && (size < 0 || size > rest.Length))
            problem = new Problem(null, $"an element of type 0x{type:X2} runs past the end of the document");
        return size;
    }

    private static int StringSize(byte type, ReadOnlySpan<byte> rest, out Problem? problem)
    {
        problem = null;
        if (rest.Length < 4)
            return -1;
        var length = BinaryPrimitives.ReadInt32LittleEndian(rest);
        if (length < 1 || length > rest.Length - 4)
            return -1;
        if (rest[4 + length - 1] != 0)
            problem = new Problem(null, "a string is not terminated");
        else if (!Utf8.IsValid(rest.Slice(4, length - 1)))
            problem = new Problem(null, $"{(type == 0x02 ? "a string" : type == 0x0D ? "JavaScript code" : "a symbol")} that is not UTF-8");
        return 4 + length;
    }

    private static int RegexSize(ReadOnlySpan<byte> rest, out Problem? problem)
    {
        problem = null;
        var first = rest.IndexOf((byte)0);
        var second = first < 0 ? -1 : rest[(first + 1)..].IndexOf((byte)0);
        if (second < 0)
            return -1;
        if (!Utf8.IsValid(rest[..first]) || !Utf8.IsValid(rest.Slice(first + 1, second)))
            problem = new Problem(null, "a regular expression that is not UTF-8");
        return first + second + 2;
    }

    /// <summary>What is wrong, and where: the element's path from the root (names joined by dots), when known.</summary>
    private sealed record Problem(string? Path, string Message)
    {
        public Problem Within(ReadOnlySpan<byte> name)
        {
            var text = Encoding.UTF8.GetString(name); // a name that is not UTF-8 shows its bad bytes as U+FFFD
            return this with { Path = Path is null ? text : text + "." + Path };
        }

        public string Describe() => Path is null ? Message : $"element '{Path}': {Message}";
    }
}
