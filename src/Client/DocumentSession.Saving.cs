using System.Linq.Expressions;
using Newtonsoft.Json.Linq;
using RavenLite.Client.Backend;
using RavenLite.Client.Serialization;
using RavenLite.Client.Session;

namespace RavenLite.Client;

public sealed partial class DocumentSession
{
    /// <summary>
    /// Writes every change since the entities were loaded or last saved, in one atomic batch (one round trip): new
    /// entities, entities whose JSON changed, deletes, and the patches asked for through <see cref="Advanced"/>. Unchanged entities are not sent; with nothing to write,
    /// nothing is sent. When any command fails (a <see cref="ConcurrencyException"/> with
    /// <see cref="UseOptimisticConcurrency"/>, bad input) nothing is written and the session is as it was.
    /// </summary>
    /// <exception cref="ConcurrencyException">An etag check failed; nothing was written.</exception>
    /// <exception cref="ArgumentException">An entity can no longer be serialized; nothing was written.</exception>
    public void SaveChanges()
    {
        if (PrepareSave() is not { } save)
            return;
        CountRequest();
        save.Apply(this, _store.Backend.Batch(save.Commands));
    }

    /// <inheritdoc cref="SaveChanges"/>
    /// <param name="cancellationToken">Cancels the wait for the server (the batch may still have been applied).</param>
    public async Task SaveChangesAsync(CancellationToken cancellationToken = default)
    {
        if (PrepareSave() is not { } save)
            return;
        CountRequest();
        save.Apply(this, await _store.Backend.BatchAsync(save.Commands, cancellationToken).ConfigureAwait(false));
    }

    /// <summary>The batch of changes (deletes first, then new and changed entities); null when there are none.</summary>
    private SavePlan? PrepareSave()
    {
        ThrowIfDisposed();
        var save = new SavePlan();
        foreach (var (key, etag) in _deletes)
            save.Commands.Add(WriteCommand.Delete(key, UseOptimisticConcurrency ? etag : null));
        foreach (var entry in _byKey.Values)
        {
            if (!entry.IsNew && UnchangedSinceLoad(entry))
                continue;
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
            save.Commands.Add(WriteCommand.Put(entry.Key, json, metadata, expected));
            save.Written.Add((entry, json, metadata));
        }
        // Patches last: they apply on the server on top of this batch's puts.
        save.Commands.AddRange(PatchCommands());
        return save.Commands.Count == 0 ? null : save;
    }

    private sealed class SavePlan
    {
        public List<WriteCommand> Commands { get; } = [];

        public List<(SessionEntry Entry, byte[] Json, byte[] Metadata)> Written { get; } = [];

        /// <summary>After the batch committed: the deletes and patches are done, the written JSON is the new baseline (the replaced version leaves the entity cache).</summary>
        public void Apply(DocumentSession session, IReadOnlyList<long?> etags)
        {
            var deletes = Commands.Count(command => command.IsDelete);
            session._deletes.Clear();
            session._patches.Clear();
            for (var i = 0; i < Written.Count; i++)
            {
                var (entry, json, metadata) = Written[i];
                if (entry.Original is { } original)
                    session._store.Entities.Cache.Remove(entry.Key, entry.Etag!.Value, original.GetType());
                entry.Original = null;
                entry.Loaded = etags[deletes + i] is { } etag ? new StoredDocument(entry.Key, etag, json, metadata) : null;
            }
        }
    }

    private readonly List<(string Key, JObject Operation)> _patches = [];

    /// <summary>Patches and other operations beyond load, store and delete.</summary>
    public AdvancedSessionOperations Advanced => field ??= new AdvancedSessionOperations(this);

    internal string RequireIdFor(object entity)
    {
        ArgumentNullException.ThrowIfNull(entity);
        return GetIdFor(entity)
            ?? throw new InvalidOperationException($"The session does not track this {entity.GetType()}; load it first, or patch it by id.");
    }

    internal string PointerFor(LambdaExpression path) => PatchPath.ToPointer(path, _store.Serializer);

    internal JToken ToToken(object? value) => _store.Serializer.ToToken(value);

    internal void AddPatch(string id, JObject operation)
    {
        DocumentKey.Validate(id, nameof(id));
        ThrowIfDisposed();
        _patches.Add((id, operation));
    }

    /// <summary>One patch command per document, its operations in the order they were asked for.</summary>
    private IEnumerable<WriteCommand> PatchCommands() =>
        _patches.GroupBy(patch => patch.Key, DocumentKeyComparer.Instance).Select(group => WriteCommand.Patch(group.Key,
            EntitySerializer.ToUtf8(new JArray(group.Select(patch => patch.Operation)).ToString(Newtonsoft.Json.Formatting.None), $"The patch of '{group.Key}'", "patch"),
            expectedEtag: null));
}
