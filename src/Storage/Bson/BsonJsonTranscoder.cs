using System.Buffers.Binary;
using System.Text.Json;
using System.Text.Unicode;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

/// <summary>
/// Writes a BSON document as UTF-8 JSON by walking its bytes, producing exactly the bytes (and token count) that
/// Newtonsoft's <c>BsonDataReader</c> gives for it. The walk handles the BSON the write path produces; at the first
/// element it cannot vouch for (a length that does not fit, a type writes never produce, text that is not UTF-8,
/// a long name, ...) it hands the document to <c>BsonDataReader</c> itself, which reads on past the tokens already
/// written (see <see cref="WriteThroughNewtonsoft"/>).
/// </summary>
internal static partial class BsonJsonTranscoder
{
    // Documents written now nest at most DocumentContent.MaxDepth (128) levels, older ones at most 129; deeper
    // ones are rare enough to leave to BsonDataReader, which applies its own limit.
    private const int MaxDepth = 136;

    // BsonDataReader decodes names of 128 bytes or more in chunks, which mangles some of them: those are left to it.
    private const int MaxNameBytes = 127;

    /// <summary>Writes <paramref name="bson"/> to <paramref name="writer"/>.</summary>
    /// <returns>How many JSON tokens were written.</returns>
    public static int Write(ReadOnlySpan<byte> bson, Utf8JsonWriter writer)
    {
        var length = bson.Length >= 5 ? BinaryPrimitives.ReadInt32LittleEndian(bson) : 0;
        if (length < 5 || length > bson.Length)
            return WriteThroughNewtonsoft(bson, writer, written: 0);

        Span<Frame> frames = stackalloc Frame[MaxDepth];
        var depth = 0;
        frames[0] = new Frame(length, IsArray: false);
        writer.WriteStartObject();
        var tokens = 1;
        var cursor = 4;
        while (true)
        {
            var frame = frames[depth];
            var last = frame.End - 1; // where the container's terminating zero belongs
            if (cursor < last)
            {
                // Everything about the element is checked before any of it is written, so that a hand-off
                // happens between tokens.
                var type = bson[cursor];
                var nameLength = bson.Slice(cursor + 1, Math.Min(last - cursor - 1, MaxNameBytes + 1)).IndexOf((byte)0);
                if (nameLength < 0)
                    break;
                var name = bson.Slice(cursor + 1, nameLength);
                var valueAt = cursor + 2 + nameLength;
                var value = bson[valueAt..last];
                var size = ValueSize(type, value);
                var opens = type is 0x03 or 0x04;
                if (size < 0 || (opens && depth + 1 == MaxDepth) || (!frame.IsArray && !Utf8.IsValid(name)))
                    break;
                if (!frame.IsArray)
                {
                    writer.WritePropertyName(name);
                    tokens++;
                }
                tokens++;
                if (opens)
                {
                    frames[++depth] = new Frame(valueAt + size, IsArray: type == 0x04);
                    if (type == 0x04)
                        writer.WriteStartArray();
                    else
                        writer.WriteStartObject();
                    cursor = valueAt + 4;
                    continue;
                }
                WriteValue(type, value[..size], writer);
                cursor = valueAt + size;
            }
            else if (cursor == last && bson[last] == 0)
            {
                if (frame.IsArray)
                    writer.WriteEndArray();
                else
                    writer.WriteEndObject();
                tokens++;
                cursor++;
                if (depth-- == 0)
                    return tokens; // BsonDataReader, too, stops at the root's end and ignores anything after it
            }
            else
            {
                break;
            }
        }
        return WriteThroughNewtonsoft(bson, writer, tokens);
    }

    /// <summary>A container being written: where it ends, and whether its elements are unnamed.</summary>
    private readonly record struct Frame(int End, bool IsArray);
}
