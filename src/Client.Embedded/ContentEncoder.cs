using Newtonsoft.Json;
using RavenLite.Client.Backend;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Client;

/// <summary>
/// Entities to <see cref="DocumentContent"/> through one reused <see cref="DocumentContentWriter"/>, each batch's
/// documents in shared blocks that are reused once the batch is written (an array per document was most of what a
/// bulk insert kept alive between collections). Disposed only after the backend has stopped writing, since disposal
/// gives the blocks back to the shared pool.
/// </summary>
internal sealed class ContentEncoder : DocumentEncoder
{
    private readonly DocumentContentBlocks _blocks = new();
    private DocumentContentWriter _writer;

    public ContentEncoder() => _writer = new DocumentContentWriter(_blocks);

    public override JsonWriter Writer => _writer;

    public override object? TakeDocument()
    {
        var content = _writer.TakeContent();
        // A serialization that threw left the writer inside an object; its state cannot be reset, so it is replaced.
        if (_writer.WriteState != WriteState.Start)
            _writer = new DocumentContentWriter(_blocks);
        return content;
    }

    public override void EndBatch() => _blocks.EndBatch();

    public override void ReleaseBatch() => _blocks.ReleaseBatch();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            ((IDisposable)_writer).Dispose();
            _blocks.Dispose();
        }
        base.Dispose(disposing);
    }
}
