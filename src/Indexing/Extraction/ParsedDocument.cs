using System.Text.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// A document version being indexed: its header, and (when an index of the batch reads JSON) its body, parsed at most
/// once for every index that reads it. The parse is private and disposed after the batch, so indexing does not grow the
/// shared, cached <see cref="Storage.Documents.Document"/>.
/// </summary>
internal sealed class ParsedDocument : IDisposable
{
    private static readonly JsonDocumentOptions s_options = new() { MaxDepth = 1000 };
    private readonly Document? _body;
    private JsonDocument? _data;
    private JsonDocument? _metadata;

    public ParsedDocument(Document document)
    {
        _body = document;
        Header = new DocumentHeader(document.Key, document.Etag, document.LastModified, document.EntityName);
    }

    public ParsedDocument(DocumentHeader header) => Header = header;

    public DocumentHeader Header { get; }

    public string Key => Header.Key;

    public long Etag => Header.Etag;

    public JsonElement Data => (_data ??= JsonDocument.Parse(Body.DataJson, s_options)).RootElement;

    /// <summary>The body's JSON unparsed, for a reader that wants a few top-level values of it (not the whole tree <see cref="Data"/> builds).</summary>
    public ReadOnlyMemory<byte> DataJson => Body.DataJson;

    /// <summary>Whether <see cref="Data"/> was parsed already (by another index of the batch): then reading it costs nothing more.</summary>
    public bool IsDataParsed => _data is not null;

    public JsonElement Metadata => (_metadata ??= JsonDocument.Parse(Body.MetadataJson, s_options)).RootElement;

    private Document Body => _body ?? throw new InvalidOperationException(
        $"Document '{Key}' was read without its body: the batch was read for indexes that read only headers.");

    public void Dispose()
    {
        _data?.Dispose();
        _metadata?.Dispose();
        _data = _metadata = null;
    }
}
