using System.Buffers;
using System.Buffers.Text;
using System.IO.Pipelines;
using System.Text.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Json;

/// <summary>
/// Streams documents with their <c>@metadata</c> straight into the response: the stored data JSON is copied
/// byte for byte (everything but its closing brace), then <c>"@metadata":{...}}</c> is appended. Nothing is
/// parsed or re-serialized, and the body is never built in memory: writes are gathered in a pooled staging buffer
/// and handed to the response in blocks of about <see cref="FlushThreshold"/> bytes (one copy and one flush per
/// block, instead of a dozen small writes per document into the server's pipe). The caller writes the separators
/// between documents and must call <see cref="FlushAsync"/> at the end; dispose returns the buffer to the pool.
/// With <c>holdBytes</c>, nothing is sent until the body passes that size: a body that stays under it goes out in the
/// single write of <see cref="FlushAsync"/>, and its length is known before (<see cref="HasSent"/>, <see cref="Length"/>).
/// <c>beforeStreaming</c> runs once, just before a body that outgrew the hold starts going out (the last moment to
/// set headers for it).
/// </summary>
internal sealed class DocumentJsonWriter(PipeWriter output, int holdBytes = 0, Action? beforeStreaming = null) : IDisposable
{
    /// <summary>How many bytes are gathered before <see cref="FlushIfNeededAsync"/> sends them (once past the hold).</summary>
    public const int FlushThreshold = 64 * 1024;

    /// <summary>How many documents <see cref="DocumentsAsync"/> writes between checks of <see cref="FlushThreshold"/>.</summary>
    private const int DocumentsPerFlushCheck = 16;

    /// <summary>Room kept after a held page's documents for the members that follow them.</summary>
    private const int ReservedForTheEnd = 2048;

    private static readonly ReadOnlyMemory<byte> s_null = "null"u8.ToArray();

    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(FlushThreshold + 8 * 1024);
    private int _written;

    /// <summary>Whether any bytes went to the response yet.</summary>
    public bool HasSent { get; private set; }

    /// <summary>The bytes buffered and not sent yet: the whole body so far while <see cref="HasSent"/> is false.</summary>
    public int Length => _written;

    /// <summary>A copy of the first <paramref name="length"/> buffered bytes.</summary>
    public byte[] Copy(int length) => _buffer.AsSpan(0, length).ToArray();

    /// <summary>Writes bytes that are already JSON (or JSON punctuation).</summary>
    public void Raw(ReadOnlySpan<byte> json)
    {
        json.CopyTo(Reserve(json.Length));
        _written += json.Length;
    }

    /// <summary>Writes a JSON string literal.</summary>
    public void String(string text) => Raw(JsonOutput.Quote(text));

    /// <summary>Writes a JSON number.</summary>
    public void Number(long value)
    {
        Utf8Formatter.TryFormat(value, Reserve(20), out var length);
        _written += length;
    }

    /// <summary>Writes a JSON number with at most one decimal (microseconds).</summary>
    public void Number(double value)
    {
        value.TryFormat(Reserve(32), out var length, "0.#", System.Globalization.CultureInfo.InvariantCulture);
        _written += length;
    }

    /// <summary>Writes <paramref name="document"/>'s data with an <c>@metadata</c> member, without keeping the rendering.</summary>
    internal void Rendered(Document document)
    {
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

    /// <summary>
    /// Writes documents (or nulls) separated by commas, flushing as the buffer fills: each document's data with an
    /// <c>@metadata</c> member, a copy of its kept rendering (<see cref="Document.RenderWith"/>, made by
    /// <see cref="Rendered"/> the first time the version is written), so a page of cached documents is a gather of
    /// their slices. A page that will be held whole
    /// gets its room at once (its renderings' lengths are known first), instead of the buffer doubling and being copied
    /// on the way up.
    /// </summary>
    public async ValueTask DocumentsAsync(IReadOnlyList<Document?> documents, CancellationToken cancellationToken)
    {
        var rendered = ArrayPool<ReadOnlyMemory<byte>>.Shared.Rent(documents.Count);
        try
        {
            long length = documents.Count;
            for (var i = 0; i < documents.Count; i++)
            {
                rendered[i] = documents[i] is { } document ? document.RenderWith(Renderer.Instance) : s_null;
                length += rendered[i].Length;
            }
            if (!HasSent && _written + length <= holdBytes)
                Reserve((int)length + ReservedForTheEnd);
            for (var i = 0; i < documents.Count; i++)
            {
                if (i > 0)
                    Raw(","u8);
                Raw(rendered[i].Span);
                if (i % DocumentsPerFlushCheck == DocumentsPerFlushCheck - 1)
                    await FlushIfNeededAsync(cancellationToken);
            }
        }
        finally
        {
            Array.Clear(rendered, 0, documents.Count);
            ArrayPool<ReadOnlyMemory<byte>>.Shared.Return(rendered);
        }
    }

    /// <summary>
    /// As <see cref="DocumentsAsync(IReadOnlyList{Document?}, CancellationToken)"/>, with members added at the end of each document's <c>@metadata</c>: its score
    /// (<c>@index-score</c>) and highlighted fragments (<c>@highlights</c>, field name to fragments), where given. The
    /// kept rendering ends with the metadata's and the document's closing braces, so the members go in before them.
    /// </summary>
    public async ValueTask AnnotatedDocumentsAsync(IReadOnlyList<Document> documents, IReadOnlyList<float>? scores,
        IReadOnlyList<IReadOnlyDictionary<string, IReadOnlyList<string>>>? highlights, CancellationToken cancellationToken)
    {
        for (var i = 0; i < documents.Count; i++)
        {
            if (i > 0)
                Raw(","u8);
            var rendered = documents[i].RenderWith(Renderer.Instance).Span;
            Raw(rendered[..^2]);
            if (scores is not null)
            {
                Raw(",\"@index-score\":"u8);
                scores[i].TryFormat(Reserve(32), out var length, "R", System.Globalization.CultureInfo.InvariantCulture);
                _written += length;
            }
            if (highlights is not null)
            {
                Raw(",\"@highlights\":{"u8);
                var firstField = true;
                foreach (var (field, fragments) in highlights[i])
                {
                    if (!firstField)
                        Raw(","u8);
                    firstField = false;
                    String(field);
                    Raw(":["u8);
                    for (var f = 0; f < fragments.Count; f++)
                    {
                        if (f > 0)
                            Raw(","u8);
                        String(fragments[f]);
                    }
                    Raw("]"u8);
                }
                Raw("}"u8);
            }
            Raw("}}"u8);
            if (i % DocumentsPerFlushCheck == DocumentsPerFlushCheck - 1)
                await FlushIfNeededAsync(cancellationToken);
        }
    }

    /// <summary>Sends what is buffered once it passes <see cref="FlushThreshold"/>.</summary>
    public async ValueTask FlushIfNeededAsync(CancellationToken cancellationToken)
    {
        if (_written >= FlushThreshold && (HasSent || _written > holdBytes))
        {
            if (!HasSent)
                beforeStreaming?.Invoke();
            await FlushAsync(cancellationToken);
        }
    }

    /// <summary>
    /// Sends what is buffered, in one write: the first write of a response goes straight into the connection's pipe
    /// after the headers, where bytes put into the writer's own memory before the headers would be copied once more.
    /// </summary>
    public async ValueTask FlushAsync(CancellationToken cancellationToken)
    {
        HasSent = true;
        var pending = _written;
        _written = 0;
        if (pending > 0)
            await output.WriteAsync(_buffer.AsMemory(0, pending), cancellationToken);
        else
            await output.FlushAsync(cancellationToken);
    }

    /// <summary>Returns the staging buffer to the pool.</summary>
    public void Dispose()
    {
        var buffer = Interlocked.Exchange(ref _buffer, []);
        if (buffer.Length > 0)
            ArrayPool<byte>.Shared.Return(buffer);
    }

    /// <summary>
    /// <c>{"@id","@etag","Last-Modified", stored members...}</c>. Stored members are copied as they are, except
    /// the names the server computes (<c>@</c>-prefixed and <c>Last-Modified</c>), so none appears twice.
    /// </summary>
    private void Metadata(Document document)
    {
        Raw("{\"@id\":"u8);
        String(document.Key);
        Raw(",\"@etag\":\""u8);
        Number(document.Etag);
        Raw("\",\"Last-Modified\":\""u8);
        // "O" of a UTC DateTime: yyyy-MM-ddTHH:mm:ss.fffffffZ, written as UTF-8 without a string in between.
        Utf8Formatter.TryFormat(document.LastModified.UtcDateTime, Reserve(32), out var length, new StandardFormat('O'));
        _written += length;
        Raw("\""u8);
        var stored = document.MetadataJson.Span;
        var reader = new Utf8JsonReader(stored, JsonOutput.MetadataReaderOptions);
        if (reader.Read() && reader.TokenType == JsonTokenType.StartObject)
        {
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                var start = (int)reader.TokenStartIndex;
                var reserved = MetadataNames.IsReserved(ref reader);
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

    /// <summary>Room for <paramref name="size"/> more bytes at the end of the buffer; grows it (a large document) when needed.</summary>
    private Span<byte> Reserve(int size)
    {
        ObjectDisposedException.ThrowIf(_buffer.Length == 0, this);
        PooledBytes.Grow(ref _buffer, _written, size);
        return _buffer.AsSpan(_written);
    }

    /// <summary>The server's rendering of a document version, kept with the cached document.</summary>
    private sealed class Renderer : IDocumentRenderer
    {
        // The rendering is taken from the staging buffer; nothing is ever flushed here.
        private static readonly PipeWriter s_nowhere = PipeWriter.Create(Stream.Null);

        public static Renderer Instance { get; } = new();

        public byte[] Render(Document document)
        {
            using var writer = new DocumentJsonWriter(s_nowhere);
            writer.Rendered(document);
            return writer.Copy(writer.Length);
        }
    }
}
