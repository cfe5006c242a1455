using System.Buffers;
using System.Buffers.Text;
using System.Globalization;
using System.IO.Pipelines;
using System.Text.Json;
using RavenLite.Server.Http;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Json;

/// <summary>
/// Streams documents with their <c>@metadata</c> straight into the response: the stored data JSON is copied
/// byte for byte (everything but its closing brace), then <c>"@metadata":{...}}</c> is appended. Nothing is
/// parsed or re-serialized, and the body is flushed every <see cref="FlushThreshold"/> bytes instead of being
/// built in memory. The caller writes the separators between documents.
/// </summary>
internal sealed class DocumentJsonWriter(PipeWriter output)
{
    /// <summary>How many bytes may wait in the pipe before <see cref="FlushIfNeededAsync"/> sends them.</summary>
    public const int FlushThreshold = 32 * 1024;

    /// <summary>How many documents <see cref="DocumentsAsync"/> writes between checks of <see cref="FlushThreshold"/>.</summary>
    private const int DocumentsPerFlushCheck = 16;

    private long _unflushed;

    /// <summary>Writes bytes that are already JSON (or JSON punctuation).</summary>
    public void Raw(ReadOnlySpan<byte> json)
    {
        output.Write(json);
        _unflushed += json.Length;
    }

    /// <summary>Writes a JSON string literal.</summary>
    public void String(string text) => Raw(JsonOutput.Quote(text));

    /// <summary>Writes a JSON number.</summary>
    public void Number(long value)
    {
        Span<byte> digits = stackalloc byte[20];
        Utf8Formatter.TryFormat(value, digits, out var written);
        Raw(digits[..written]);
    }

    /// <summary>Writes <paramref name="document"/>'s data with an <c>@metadata</c> member, or <c>null</c>.</summary>
    public void Document(Document? document)
    {
        if (document is null)
        {
            Raw("null"u8);
            return;
        }
        var data = document.DataJson.Span;
        var close = data.LastIndexOf((byte)'}');
        if (data.IsEmpty || data[0] != (byte)'{' || close < 1)
            throw new InvalidOperationException($"The stored data of '{document.Key}' is not a JSON object.");
        Raw(data[..close]);
        if (data[1..close].IndexOfAnyExcept(" \t\r\n"u8) >= 0)
            Raw(","u8);
        Raw("\"@metadata\":"u8);
        Metadata(document);
        Raw("}"u8);
    }

    /// <summary>Writes documents (or nulls) separated by commas, flushing as the buffer fills.</summary>
    public async ValueTask DocumentsAsync(IReadOnlyList<Document?> documents, CancellationToken cancellationToken)
    {
        for (var i = 0; i < documents.Count; i++)
        {
            if (i > 0)
                Raw(","u8);
            Document(documents[i]);
            if (i % DocumentsPerFlushCheck == DocumentsPerFlushCheck - 1)
                await FlushIfNeededAsync(cancellationToken);
        }
    }

    /// <summary>Sends what is buffered once it passes <see cref="FlushThreshold"/>.</summary>
    public async ValueTask FlushIfNeededAsync(CancellationToken cancellationToken)
    {
        if (_unflushed >= FlushThreshold)
            await FlushAsync(cancellationToken);
    }

    /// <summary>Sends what is buffered.</summary>
    public async ValueTask FlushAsync(CancellationToken cancellationToken)
    {
        _unflushed = 0;
        await output.FlushAsync(cancellationToken);
    }

    /// <summary>
    /// <c>{"@id","@etag","Last-Modified", stored members...}</c>. Stored members are copied as they are, except
    /// the names the server computes (<c>@</c>-prefixed and <c>Last-Modified</c>), so none appears twice.
    /// </summary>
    private void Metadata(Document document)
    {
        Raw("{\"@id\":"u8);
        String(document.Key);
        Raw(",\"@etag\":"u8);
        String(ETags.ToText(document.Etag));
        Raw(",\"Last-Modified\":"u8);
        String(document.LastModified.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture));
        var stored = document.MetadataJson.Span;
        var reader = new Utf8JsonReader(stored, JsonOutput.MetadataReaderOptions);
        if (reader.Read() && reader.TokenType == JsonTokenType.StartObject)
        {
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                var start = (int)reader.TokenStartIndex;
                var reserved = MetadataNamesReserved.IsReserved(reader.GetString()!);
                reader.Read();
                reader.Skip();
                if (!reserved)
                {
                    Raw(","u8);
                    Raw(stored[start..(int)reader.BytesConsumed]);
                }
            }
        }
        Raw("}"u8);
    }
}
