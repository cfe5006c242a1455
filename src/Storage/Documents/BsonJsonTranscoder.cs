using System.Buffers.Binary;
using System.Text.Json;

namespace RavenLite.Storage.Documents;

/// <summary>
/// Writes a BSON document as UTF-8 JSON by walking its bytes, producing exactly the bytes (and token count)
/// the Newtonsoft <c>BsonDataReader</c> this replaced produced. It writes well-formed BSON itself; at the first
/// element it cannot vouch for (a length that does not fit, a type writes never produce, a name of 128 bytes or
/// more, ...) it hands the rest of the document to <see cref="BsonTokenReader"/>, which reads on exactly as
/// the old reader did, errors and all.
/// </summary>
internal static partial class BsonJsonTranscoder
{
    // Documents written now nest at most DocumentContent.MaxDepth (128) levels, older ones at most 129; anything
    // deeper goes to the token reader, which applies the old reader's own limit.
    private const int MaxDepth = 136;

    // The old reader decoded names of 128 bytes or more in chunks, mangling some; those go to the token reader.
    private const int MaxNameBytes = 127;

    /// <summary>Writes <paramref name="bson"/> to <paramref name="writer"/>.</summary>
    /// <returns>How many JSON tokens were written.</returns>
    public static int Write(ReadOnlySpan<byte> bson, Utf8JsonWriter writer)
    {
        var length = bson.Length >= 5 ? BinaryPrimitives.ReadInt32LittleEndian(bson) : 0;
        if (length < 5 || length > bson.Length)
            return BsonTokenReader.ReadAll(bson, writer);

        Span<Frame> frames = stackalloc Frame[MaxDepth];
        var depth = 0;
        frames[0] = new Frame(0, length, IsArray: false);
        writer.WriteStartObject();
        var tokens = 1;
        var cursor = 4;
        var justOpened = true;
        while (true)
        {
            var frame = frames[depth];
            var last = frame.End - 1; // where the container's terminating zero belongs
            if (cursor < last)
            {
                // Everything about the element is checked before any of it is written, so a hand-off
                // happens between elements, where the token reader can take over.
                var type = bson[cursor];
                var nameLength = bson.Slice(cursor + 1, Math.Min(last - cursor - 1, MaxNameBytes + 1)).IndexOf((byte)0);
                if (nameLength < 0)
                    break;
                var valueAt = cursor + 2 + nameLength;
                var value = bson[valueAt..last];
                var size = ValueSize(type, value);
                var opens = type is 0x03 or 0x04;
                if (size < 0 || (opens && depth + 1 == MaxDepth))
                    break;
                if (!frame.IsArray)
                {
                    WriteName(bson.Slice(cursor + 1, nameLength), writer);
                    tokens++;
                }
                tokens++;
                if (opens)
                {
                    frames[++depth] = new Frame(valueAt, valueAt + size, IsArray: type == 0x04);
                    if (type == 0x04)
                        writer.WriteStartArray();
                    else
                        writer.WriteStartObject();
                    cursor = valueAt + 4;
                    justOpened = true;
                    continue;
                }
                WriteValue(type, value[..size], writer);
                cursor = valueAt + size;
                justOpened = false;
            }
            else if (cursor == last && bson[last] == 0)
            {
                if (frame.IsArray)
                    writer.WriteEndArray();
                else
                    writer.WriteEndObject();
                tokens++;
                cursor++;
                justOpened = false;
                if (depth-- == 0)
                    return tokens; // the old reader stopped at the root's end and ignored anything after it
            }
            else
            {
                break;
            }
        }
        return BsonTokenReader.Resume(bson, writer, frames[..(depth + 1)], cursor, tokens, justOpened);
    }

    /// <summary>A container being written: where its length prefix starts and where it ends.</summary>
    internal readonly record struct Frame(int Start, int End, bool IsArray);
}
