using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

/// <summary>
/// Reads JSON text strictly by RFC 8259 (System.Text.Json's reader: no comments, single quotes, unquoted names,
/// trailing commas, NaN, leading zeros, unclosed containers or trailing content) and writes it through
/// <see cref="CheckedBsonWriter"/>. Every number is stored exactly, or refused (see <see cref="BsonNumbers"/>). A name
/// given twice in one object is refused.
/// </summary>
internal static partial class StrictJson
{
    // One level more than the limit, so nesting past it is refused by CheckedBsonWriter with its own message.
    private static readonly JsonReaderOptions ReaderOptions = new() { MaxDepth = DocumentContent.MaxDepth + 1 };

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>The UTF-8 form of <paramref name="json"/>; a lone surrogate is refused rather than replaced.</summary>
    public static byte[] ToUtf8(string json, string what)
    {
        try
        {
            return StrictUtf8.GetBytes(json);
        }
        catch (EncoderFallbackException ex)
        {
            throw new ArgumentException($"{what} is not valid JSON: it holds a lone surrogate (character {ex.Index + 1}), which is not Unicode text.", ex);
        }
    }

    /// <summary>Encodes UTF-8 JSON text, which must be exactly one JSON object, as BSON.</summary>
    public static byte[] ToBson(ReadOnlySpan<byte> utf8, string what)
    {
        if (utf8.Trim(" \t\r\n"u8).IsEmpty)
            throw new ArgumentException($"{what} is empty; it must be a JSON object.");
        var reader = new Utf8JsonReader(utf8, ReaderOptions);
        try
        {
            reader.Read();
        }
        catch (JsonException ex)
        {
            throw NotJson(ex, what);
        }
        if (reader.TokenType != JsonTokenType.StartObject)
            throw Placed($"{what} must be a JSON object, not {Describe(reader.TokenType)}.", utf8, reader.TokenStartIndex, inner: null);
        var bson = ToBson(ref reader, utf8, what, leaveOut: null);
        try
        {
            reader.Read(); // throws on anything but whitespace after the object
        }
        catch (JsonException ex)
        {
            throw NotJson(ex, what);
        }
        return bson;
    }

    /// <summary>
    /// Encodes the JSON object <paramref name="reader"/> is on (its start) as BSON in the same pass that reads it, and
    /// leaves the reader on the object's end. <paramref name="utf8"/> is the reader's whole input (for the positions
    /// in messages); top-level properties <paramref name="leaveOut"/> names are skipped.
    /// </summary>
    public static byte[] ToBson(ref Utf8JsonReader reader, ReadOnlySpan<byte> utf8, string what, Func<string, bool>? leaveOut)
    {
        var start = reader;
        if (JsonBsonEncoder.TryEncode(ref reader, leaveOut) is { } bson)
            return bson;
        reader = start;
        return ToCheckedBson(ref reader, utf8, what, leaveOut);
    }

    /// <summary>
    /// As <see cref="ToBson(ref Utf8JsonReader, ReadOnlySpan{byte}, string, Func{string, bool}?)"/>, through
    /// <see cref="CheckedBsonWriter"/> alone: the judge of what the fast encoder leaves to it, with the messages.
    /// </summary>
    internal static byte[] ToCheckedBson(ref Utf8JsonReader reader, ReadOnlySpan<byte> utf8, string what, Func<string, bool>? leaveOut)
    {
        using var stream = new MemoryStream(256);
        try
        {
            using var writer = new CheckedBsonWriter(stream, what);
            Copy(ref reader, writer, what, leaveOut);
            writer.Close();
            return writer.ToArray(stream);
        }
        catch (JsonException ex)
        {
            throw NotJson(ex, what);
        }
        catch (ArgumentException ex) when (ex.InnerException is not JsonException)
        {
            throw Placed(ex.Message, utf8, reader.TokenStartIndex, ex);
        }
    }

    private static ArgumentException Placed(string message, ReadOnlySpan<byte> utf8, long index, Exception? inner) =>
        new($"{message.TrimEnd('.')} ({Position(utf8, index)}).", inner);

    private static ArgumentException NotJson(JsonException ex, string what) => new(
        $"{what} is not valid JSON at line {ex.LineNumber + 1}, byte {ex.BytePositionInLine + 1}: {ReaderNoise().Replace(ex.Message, "")}", ex);

    private static void Copy(ref Utf8JsonReader reader, CheckedBsonWriter writer, string what, Func<string, bool>? leaveOut)
    {
        // The names seen so far in each open object (null for arrays), to refuse duplicates.
        var names = new Stack<HashSet<string>?>();
        do
        {
            switch (reader.TokenType)
            {
                case JsonTokenType.StartObject:
                    writer.WriteStartObject();
                    names.Push(new HashSet<string>(StringComparer.Ordinal));
                    break;
                case JsonTokenType.StartArray:
                    writer.WriteStartArray();
                    names.Push(null);
                    break;
                case JsonTokenType.EndObject:
                    writer.WriteEndObject();
                    names.Pop();
                    break;
                case JsonTokenType.EndArray:
                    writer.WriteEndArray();
                    names.Pop();
                    break;
                case JsonTokenType.PropertyName:
                    var name = Text(ref reader, what);
                    if (names.Count == 1 && leaveOut is not null && leaveOut(name))
                    {
                        reader.Read();
                        reader.Skip();
                        break;
                    }
                    if (!names.Peek()!.Add(name))
                        throw new ArgumentException(
                            $"{what} has the property '{CheckedBsonWriter.Printable(name)}' twice in one object; names must be unique.");
                    writer.WritePropertyName(name);
                    break;
                case JsonTokenType.String:
                    writer.WriteValue(Text(ref reader, what));
                    break;
                case JsonTokenType.Number when reader.TryGetInt64(out var integer):
                    writer.WriteValue(integer);
                    break;
                case JsonTokenType.Number:
                    switch (BsonNumbers.Classify(reader.ValueSpan, reader.GetDouble(), out var exact))
                    {
                        case NumberForm.Double:
                            writer.WriteValue(reader.GetDouble());
                            break;
                        case NumberForm.Decimal128:
                            writer.WriteDecimal128(exact);
                            break;
                        case NumberForm.OutOfRange:
                            throw new ArgumentException(
                                $"{what} has the number {Encoding.UTF8.GetString(reader.ValueSpan)}, out of the range a double can hold (about ±1.8E+308).");
                        default:
                            throw new ArgumentException(
                                $"{what} has the number {Encoding.UTF8.GetString(reader.ValueSpan)}, which RavenLite cannot store exactly: "
                                + "beyond an int64 or a double, numbers are kept as BSON decimal128 when they are integers below 10^34 "
                                + "or fit a .NET decimal (at most 28 decimal places and 29 digits).");
                    }
                    break;
                case JsonTokenType.True or JsonTokenType.False:
                    writer.WriteValue(reader.GetBoolean());
                    break;
                default:
                    writer.WriteNull();
                    break;
            }
        }
        while (names.Count > 0 && reader.Read());
    }

    private static string Text(ref Utf8JsonReader reader, string what)
    {
        try
        {
            return reader.GetString()!;
        }
        catch (InvalidOperationException ex)
        {
            throw new ArgumentException($"{what} has text that is not Unicode (invalid UTF-8, or an escaped lone surrogate): {ex.Message}", ex);
        }
    }

    private static string Position(ReadOnlySpan<byte> utf8, long index)
    {
        var before = utf8[..(int)Math.Min(index, utf8.Length)];
        var lineStart = before.LastIndexOf((byte)'\n') + 1;
        return $"line {before.Count((byte)'\n') + 1}, byte {before.Length - lineStart + 1}";
    }

    private static string Describe(JsonTokenType token) => token switch
    {
        JsonTokenType.StartArray => "an array",
        JsonTokenType.String => "a string",
        JsonTokenType.Number => "a number",
        JsonTokenType.True or JsonTokenType.False => "a boolean",
        JsonTokenType.Null => "null",
        _ => token.ToString(),
    };

    /// <summary>The reader's own position (given above, counted from 1) and its advice to change reader options.</summary>
    [GeneratedRegex(@"( Change the reader options\.)? ?(Path: \S*)? ?\|? ?LineNumber: \d+ \| BytePositionInLine: \d+\.$")]
    private static partial Regex ReaderNoise();
}
