using System.Text;
using System.Text.Json;
using Newtonsoft.Json.Linq;
using RavenLite.Storage.Bson;

namespace RavenLite.Storage.Documents;

/// <summary>
/// A JSON object already encoded as BSON and checked, ready to store. Build it from a
/// <see cref="JObject"/>, from JSON text, or from BSON bytes; bad input is refused here, before any write.
/// </summary>
public sealed class DocumentContent
{
    internal DocumentContent(ReadOnlyMemory<byte> bson) => Bson = bson;

    /// <summary>
    /// How deep a document may nest: the outermost object is level 1, each object or array inside adds one.
    /// Deeper content is refused by every way in (JSON, <see cref="JObject"/>, BSON).
    /// </summary>
    public const int MaxDepth = 128;

    /// <summary>An empty object (<c>{}</c>).</summary>
    public static DocumentContent Empty { get; } = new(new byte[] { 5, 0, 0, 0, 0 });

    /// <summary>The BSON encoding.</summary>
    public ReadOnlyMemory<byte> Bson { get; }

    /// <summary>
    /// Encodes a JSON object; throws <see cref="ArgumentException"/> for what would not read back equal: a name
    /// holding U+0000, a lone surrogate, NaN or an infinity, nesting deeper than <see cref="MaxDepth"/>.
    /// </summary>
    public static DocumentContent FromJObject(JObject value) => new(BsonCodec.FromJObject(value, "The document"));

    /// <summary>
    /// Encodes JSON text; throws <see cref="ArgumentException"/> (naming the line and byte) unless it is exactly one
    /// JSON object by RFC 8259, with unique names in each object, that can be stored as it is (see <see cref="FromJObject"/>).
    /// </summary>
    public static DocumentContent FromJson(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        return new(BsonCodec.FromJson(json, "The document"));
    }

    /// <summary>As <see cref="FromJson(string)"/>, for UTF-8 JSON text (which must be valid UTF-8).</summary>
    public static DocumentContent FromJson(ReadOnlySpan<byte> utf8Json) =>
        new(BsonCodec.FromJson(utf8Json, "The document"));

    /// <summary>
    /// As <see cref="FromJson(ReadOnlySpan{byte})"/>, for the JSON object <paramref name="reader"/> is on (its
    /// <c>{</c>) inside larger input, encoded in the same pass that reads it: the reader is left on the object's
    /// <c>}</c>. <paramref name="input"/> is the reader's whole input, for the positions in messages. Top-level
    /// properties whose name <paramref name="leaveOut"/> accepts are left out.
    /// </summary>
    public static DocumentContent FromJson(ref Utf8JsonReader reader, ReadOnlySpan<byte> input, Func<string, bool>? leaveOut = null)
    {
        if (reader.TokenType != JsonTokenType.StartObject)
            throw new ArgumentException("The reader must be on the start of a JSON object.", nameof(reader));
        return new(StrictJson.ToBson(ref reader, input, "The document", leaveOut));
    }

    /// <summary>Takes a BSON document as it is, after checking that it is well formed and reads back as one JSON object.</summary>
    public static DocumentContent FromBson(ReadOnlySpan<byte> bson)
    {
        BsonCodec.Validate(bson, "The document");
        return new(bson.ToArray());
    }

    /// <summary>The content as JSON text (for diagnostics and tests).</summary>
    public override string ToString()
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        BsonCodec.ToJson(Bson.Span, buffer);
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
