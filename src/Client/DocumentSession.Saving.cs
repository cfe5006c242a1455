using RavenLite.Client.Backend;
using RavenLite.Client.Serialization;
using RavenLite.Client.Session;

namespace RavenLite.Client;

public sealed partial class DocumentSession
{
    /// <summary>
    /// Writes every change since the entities were loaded or last saved, in one atomic batch (one round trip): new
    /// entities, entities whose JSON changed, and deletes. Unchanged entities are not sent; with nothing to write,
    /// nothing is sent. When any command fails (a <see cref="Storage.ConcurrencyException"/> with
    /// <see cref="UseOptimisticConcurrency"/>, bad input) nothing is written and the session is as it was.
    /// </summary>
    /// <exception cref="Storage.ConcurrencyException">An etag check failed; nothing was written.</exception>
    /// <exception cref="ArgumentException">An entity can no longer be serialized; nothing was written.</exception>
    public void SaveChanges()
    {
        ThrowIfDisposed();
        var commands = new List<WriteCommand>();
        var written = new List<(SessionEntry Entry, byte[] Json, byte[] Metadata)>();
        foreach (var (key, etag) in _deletes)
            commands.Add(WriteCommand.Delete(key, UseOptimisticConcurrency ? etag : null));
        foreach (var entry in _byKey.Values)
        {
            var json = _store.Serializer.Serialize(entry.Entity, entry.Key);
            if (!entry.IsNew && DocumentComparer.Same(entry.Json.Span, json, _store.Conventions.IdentityPropertyName))
                continue;
            var type = entry.Entity.GetType();
            var metadata = entry.IsNew
                ? EntityMetadata.ForNew(_store.Conventions.FindEntityName(type), type)
                : EntityMetadata.ForUpdate(entry.Metadata, type);
            long? expected = entry.IsNew
                ? (entry.GeneratedId || UseOptimisticConcurrency ? 0 : null)
                : (UseOptimisticConcurrency ? entry.Etag : null);
            commands.Add(WriteCommand.Put(entry.Key, json, metadata, expected));
            written.Add((entry, json, metadata));
        }
        if (commands.Count == 0)
            return;
        CountRequest();
        var etags = _store.Backend.Batch(commands);
        var deletes = _deletes.Count;
        _deletes.Clear();
        for (var i = 0; i < written.Count; i++)
        {
            var (entry, json, metadata) = written[i];
            entry.Etag = etags[deletes + i];
            entry.Json = json;
            entry.Metadata = metadata;
        }
    }
}
