using System.Text.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// A document being indexed, its JSON parsed at most once for every index that reads it. The parse is private
/// and disposed after the batch, so indexing does not grow the shared, cached <see cref="Document"/>.
/// </summary>
internal sealed class ParsedDocument(Document document) : IDisposable
{
    private static readonly JsonDocumentOptions s_options = new() { MaxDepth = 1000 };
    private JsonDocument? _data;
    private JsonDocument? _metadata;

    public Document Document { get; } = document;

    public JsonElement Data => (_data ??= JsonDocument.Parse(Document.DataJson, s_options)).RootElement;

    public JsonElement Metadata => (_metadata ??= JsonDocument.Parse(Document.MetadataJson, s_options)).RootElement;

    public void Dispose()
    {
        _data?.Dispose();
        _metadata?.Dispose();
        _data = _metadata = null;
    }
}
