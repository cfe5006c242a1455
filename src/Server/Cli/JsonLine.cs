using System.Buffers;
using System.Text.Json;
using RavenLite.Server.Errors;
using RavenLite.Server.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Cli;

/// <summary>
/// One line of an import or a bulk insert: <c>{"key": "...", "metadata": {...}, "data": {...}}</c>, with an optional
/// <c>"etag"</c> (0: must not exist; else the current etag), checked as the database checks it.
/// </summary>
internal static class JsonLine
{
    /// <summary>The next line without its line feed (and carriage return); at the end, the rest when it has no line feed.</summary>
    public static bool TryRead(ref ReadOnlySequence<byte> buffer, bool completed, out ReadOnlySequence<byte> line)
    {
        if (buffer.PositionOf((byte)'\n') is { } end)
        {
            line = buffer.Slice(0, end);
            buffer = buffer.Slice(buffer.GetPosition(1, end));
        }
        else if (completed && !buffer.IsEmpty)
        {
            line = buffer;
            buffer = buffer.Slice(buffer.End);
        }
        else
        {
            line = default;
            return false;
        }
        if (!line.IsEmpty && line.Slice(line.Length - 1).FirstSpan[0] == (byte)'\r')
            line = line.Slice(0, line.Length - 1);
        return true;
    }

    public static bool IsBlank(ReadOnlySequence<byte> line)
    {
        foreach (var segment in line)
        {
            foreach (var b in segment.Span)
            {
                if (b is not ((byte)' ' or (byte)'\t'))
                    return false;
            }
        }
        return true;
    }

    private static readonly ReadOnlyMemory<byte> s_emptyObject = "{}"u8.ToArray();

    // The line's object holds the document at depth 2; the storage's own limit refuses deep documents first, with its message.
    private static readonly JsonReaderOptions s_readerOptions = new() { MaxDepth = JsonOutput.ReaderOptions.MaxDepth };

    /// <summary>
    /// Parses and checks the line in one pass: a <see cref="Utf8JsonReader"/> walks it, and the data and metadata
    /// objects go from the reader straight into their BSON. False with what is wrong (a sentence) when it is bad.
    /// </summary>
    public static bool TryParse(ReadOnlyMemory<byte> line, out TransferDocument? document, out string? error)
    {
        document = null;
        var text = line.Span;
        try
        {
            var reader = new Utf8JsonReader(text, s_readerOptions);
            reader.Read();
            if (reader.TokenType != JsonTokenType.StartObject)
                throw new ArgumentException($"a line must be a JSON object, not {Describe(reader.TokenType)}.");
            string? key = null;
            DocumentContent? data = null;
            DocumentContent? metadata = null;
            ReadOnlyMemory<byte> dataJson = default, metadataJson = s_emptyObject;
            var dataKind = JsonTokenType.None;
            long? etag = null;
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                var name = reader.ValueTextEquals("key"u8) ? "key" : reader.ValueTextEquals("data"u8) ? "data"
                    : reader.ValueTextEquals("metadata"u8) ? "metadata" : reader.ValueTextEquals("etag"u8) ? "etag" : null;
                reader.Read();
                var start = (int)reader.TokenStartIndex;
                switch (name)
                {
                    case "key":
                        key = reader.TokenType == JsonTokenType.String ? reader.GetString() : null;
                        break;
                    case "data" when reader.TokenType == JsonTokenType.StartObject:
                        dataKind = reader.TokenType;
                        data = DocumentContent.FromJson(ref reader, text);
                        dataJson = line.Slice(start, (int)reader.BytesConsumed - start);
                        break;
                    case "data":
                        dataKind = reader.TokenType;
                        reader.Skip();
                        break;
                    case "metadata" when reader.TokenType == JsonTokenType.Null:
                        break;
                    case "metadata" when reader.TokenType == JsonTokenType.StartObject:
                        metadata = DocumentContent.FromJson(ref reader, text, MetadataNames.IsReserved);
                        metadataJson = line.Slice(start, (int)reader.BytesConsumed - start);
                        break;
                    case "etag" when reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out var expected) && expected >= 0:
                        etag = expected;
                        break;
                    case "etag":
                        throw new ArgumentException("\"etag\" must be a whole number (0: the document must not exist).");
                    case "metadata":
                        throw RequestException.BadRequest($"this line: Metadata must be a JSON object, not {Describe(reader.TokenType)}.");
                    default:
                        reader.Skip();
                        break;
                }
            }
            while (reader.Read())
            {
                // nothing may follow the line's object: the reader throws on anything but whitespace
            }
            if (key is null)
                throw new ArgumentException("\"key\" must be a string.");
            if (data is null || dataKind != JsonTokenType.StartObject)
                throw new ArgumentException("\"data\" must be a JSON object.");
            if (ReservedMembers.HasMetadata(dataJson.Span))
                throw new ArgumentException("\"data\": " + ReservedMembers.Refusal);
            document = new TransferDocument(key, metadataJson, dataJson) { Content = (data, metadata), ExpectedEtag = etag };
            error = null;
            return true;
        }
        catch (Exception ex) when (ex is JsonException or ArgumentException or RequestException)
        {
            // Syntax errors read the same inside the document as around it.
            error = ex is JsonException || ex.InnerException is JsonException ? $"not valid JSON: {(ex.InnerException ?? ex).Message}" : ex.Message;
            return false;
        }
    }

    private static string Describe(JsonTokenType token) => token switch
    {
        JsonTokenType.StartObject => "an object",
        JsonTokenType.StartArray => "an array",
        JsonTokenType.String => "a string",
        JsonTokenType.Number => "a number",
        JsonTokenType.True or JsonTokenType.False => "a boolean",
        JsonTokenType.Null => "null",
        _ => "nothing",
    };
}
