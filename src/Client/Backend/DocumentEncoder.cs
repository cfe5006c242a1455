using Newtonsoft.Json;

namespace RavenLite.Client.Backend;

/// <summary>
/// A backend's own form of documents, for a bulk insert: the store's serializer writes each entity straight into
/// <see cref="Writer"/> instead of into UTF-8 JSON that the backend would then convert. One per bulk insert, used by
/// one thread; from <see cref="IStoreBackend.CreateDocumentEncoder"/>, disposed when the bulk insert ends.
/// </summary>
public abstract class DocumentEncoder : IDisposable
{
    /// <summary>The writer the next entity is serialized into.</summary>
    public abstract JsonWriter Writer { get; }

    /// <summary>
    /// The document written into <see cref="Writer"/> since the last call, in the backend's form (for
    /// <see cref="WriteCommand.EncodedData"/>), or null when the writer left it to UTF-8 JSON (the caller then
    /// serializes the entity as JSON). Called after every entity, also one whose serialization threw; readies
    /// <see cref="Writer"/> for the next.
    /// </summary>
    public abstract object? TakeDocument();

    /// <summary>
    /// Ends a batch: the documents taken since the previous call go to the backend together. An encoder may keep their
    /// memory until <see cref="ReleaseBatch"/>.
    /// </summary>
    public virtual void EndBatch()
    {
    }

    /// <summary>
    /// The backend has written the oldest batch ended and not yet released and no longer reads its documents: their
    /// memory may be reused. Called on the backend's thread, in the order the batches were ended.
    /// </summary>
    public virtual void ReleaseBatch()
    {
    }

    /// <summary>Releases the writer's buffers.</summary>
    public void Dispose()
    {
        Dispose(disposing: true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Releases what the encoder holds; <paramref name="disposing"/> is false from a finalizer.</summary>
    protected virtual void Dispose(bool disposing)
    {
    }
}
