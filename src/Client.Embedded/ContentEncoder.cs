using Newtonsoft.Json;
using RavenLite.Client.Backend;
using RavenLite.Storage.Documents;

namespace RavenLite.Client;

/// <summary>Entities to <see cref="DocumentContent"/> through one reused <see cref="DocumentContentWriter"/>.</summary>
internal sealed class ContentEncoder : DocumentEncoder
{
    private DocumentContentWriter _writer = new();

    public override JsonWriter Writer => _writer;

    public override object? TakeDocument()
    {
        var content = _writer.TakeContent();
        // A serialization that threw left the writer inside an object; its state cannot be reset, so it is replaced.
        if (_writer.WriteState != WriteState.Start)
            _writer = new DocumentContentWriter();
        return content;
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
            ((IDisposable)_writer).Dispose();
        base.Dispose(disposing);
    }
}
