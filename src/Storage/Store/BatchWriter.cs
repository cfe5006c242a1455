using Newtonsoft.Json.Linq;
using System.Text;
using RavenLite.Storage.Bson;

namespace RavenLite.Storage.Documents;

/// <summary>Applies prepared commands inside one write transaction, keeping etags and counts in step.</summary>
internal sealed class BatchWriter(DocumentStore store, IWriteTransaction tx, DateTimeOffset now, bool single)
{
    private readonly Dictionary<string, long> _entityDeltas = new(StringComparer.Ordinal);
    private readonly List<ReplacedVersion> _replaced = [];
    private long _etag;
    private long _countDelta;
    private byte[] _record = [];

    /// <summary>The versions this batch replaced or deleted, which the document cache may drop after the commit.</summary>
    public IReadOnlyList<ReplacedVersion> Replaced => _replaced;

    public BatchResult[] Run(PreparedCommand[] commands)
    {
        // Never below an etag this store has seen: a PostgreSQL failover to an asynchronous standby can lose the last
        // commits, and their etags, given out again, would be skipped by indexers already past them.
        _etag = Math.Max(StoredValues.ReadInt64(tx, store.StateTable, DocumentStore.LastEtagName), store.SeenLastEtag);
        var results = new BatchResult[commands.Length];
        for (var i = 0; i < commands.Length; i++)
            results[i] = Apply(commands[i], i);
        StoredValues.WriteInt64(tx, store.StateTable, DocumentStore.LastEtagName, _etag);
        if (_countDelta != 0)
        {
            var count = StoredValues.ReadInt64(tx, store.StateTable, DocumentStore.DocumentCountName);
            StoredValues.WriteInt64(tx, store.StateTable, DocumentStore.DocumentCountName, count + _countDelta);
        }
        foreach (var (entity, delta) in _entityDeltas)
        {
            if (delta == 0)
                continue;
            var total = StoredValues.ReadInt64(tx, store.EntityCountsTable, entity) + delta;
            if (total > 0)
                StoredValues.WriteInt64(tx, store.EntityCountsTable, entity, total);
            else
                tx.Delete(store.EntityCountsTable, Encoding.UTF8.GetBytes(entity));
        }
        return results;
    }

    private BatchResult Apply(PreparedCommand prepared, int index)
    {
        var command = prepared.Command;
        var existing = Existing.Read(tx, store.DocumentsTable, prepared.StorageKey);
        CheckExpectedEtag(command, existing, index);
        Content? content = command switch
        {
            PutCommand put => new Content(put.Metadata.Bson, put.Data.Bson, prepared.EntityName),
            PatchCommand patch when existing is not null => Patched(patch, prepared, index),
            _ => null,
        };
        if (command is PatchCommand && content is null)
            return new BatchResult(command.Key, null, Deleted: false);
        if (existing is { } old)
        {
            tx.Delete(store.ByEtagTable, StoredValues.EtagKey(old.Etag));
            _replaced.Add(new ReplacedVersion(prepared.StorageKey, old.Etag));
            Count(old.EntityName, -1);
        }

        if (content is { } written)
        {
            var etag = ++_etag;
            // Engines copy what they are given: one buffer serves every record of the batch.
            var size = DocumentRecord.Size(command.Key, written.EntityName, written.Metadata.Span, written.Data.Span);
            if (_record.Length < size)
                _record = new byte[Math.Max(size, _record.Length * 2)];
            var record = _record.AsSpan(0, DocumentRecord.Write(_record, etag, now, command.Key, written.EntityName, written.Metadata.Span, written.Data.Span));
            tx.Put(store.DocumentsTable, prepared.StorageKey, record);
            Span<byte> etagKey = stackalloc byte[StoredValues.EtagKeyLength];
            tx.Put(store.ByEtagTable, StoredValues.WriteEtagKey(etagKey, etag), prepared.StorageKey);
            Count(written.EntityName, +1);
            if (existing is { } replaced)
                RecordReplaced(etag, replaced.Etag);
            else
                _countDelta++;
            return new BatchResult(command.Key, etag, Deleted: false);
        }

        if (existing is not { } deleted)
            return new BatchResult(command.Key, null, Deleted: false);
        var tombstoneEtag = ++_etag;
        tx.Delete(store.DocumentsTable, prepared.StorageKey);
        tx.Put(store.TombstonesTable, StoredValues.EtagKey(tombstoneEtag), Encoding.UTF8.GetBytes(deleted.Key));
        RecordReplaced(tombstoneEtag, deleted.Etag);
        _countDelta--;
        return new BatchResult(command.Key, tombstoneEtag, Deleted: true);
    }

    /// <summary>
    /// The patched content of the current version, read and built before this command writes anything (a write may move
    /// the pages the read spans point into). The key keeps its stored casing and the metadata stays as it was.
    /// </summary>
    private Content? Patched(PatchCommand patch, PreparedCommand prepared, int index)
    {
        tx.TryGet(store.DocumentsTable, prepared.StorageKey, out var span);
        var metadata = new DocumentRecord(span).MetadataBson.ToArray();
        var current = store.Load(tx, prepared.StorageKey, addMiss: false)!;
        byte[] data;
        try
        {
            var changes = patch.Changes;
            JObject? patched;
            if (changes is ISkippingDocumentPatch skipping)
            {
                // A set operation's patch leaves a document it refuses as it is, without failing the rest of the batch.
                patched = skipping.ApplyOrSkip(current.Key, current.ToJObject());
                if (patched is null)
                    return null;
            }
            else
            {
                patched = changes.Apply(current.Key, current.ToJObject())
                    ?? throw new PatchException($"The patch of '{current.Key}' produced no document.", testFailed: false);
            }
            data = BsonCodec.FromJObject(patched, $"The patched document '{current.Key}'");
        }
        catch (PatchException ex) when (!single)
        {
            throw new PatchException($"Batch command {index}: {ex.Message}", ex.TestFailed, ex);
        }
        catch (ArgumentException ex) when (!single)
        {
            throw new ArgumentException($"Batch command {index}: {ex.Message}", ex);
        }
        if ((long)data.Length + metadata.Length > BsonCodec.MaxDocumentBytes)
            throw new ArgumentException(
                $"{(single ? "" : $"Batch command {index}: ")}the patched document '{current.Key}' is over the limit of {BsonCodec.MaxDocumentBytes:N0} bytes (16 MiB). Nothing was written.");
        return new Content(metadata, data, current.EntityName);
    }

    /// <summary>Records that the write at <paramref name="etag"/> replaced the version at <paramref name="replaced"/> (<see cref="DocumentStore.ReplacedTable"/>).</summary>
    private void RecordReplaced(long etag, long replaced)
    {
        Span<byte> key = stackalloc byte[StoredValues.EtagKeyLength];
        Span<byte> value = stackalloc byte[StoredValues.EtagKeyLength];
        tx.Put(store.ReplacedTable, StoredValues.WriteEtagKey(key, etag), StoredValues.WriteEtagKey(value, replaced));
    }

    private void CheckExpectedEtag(BatchCommand command, Existing? existing, int index)
    {
        if (command.ExpectedEtag is not { } expected)
            return;
        var actual = existing?.Etag;
        var matches = expected == 0 ? actual is null : actual == expected;
        // Deleting something already gone with "must not exist" (0) is fine: the caller's belief holds.
        if (!matches)
            throw new ConcurrencyException(command.Key, expected, actual, single ? null : index);
    }

    private void Count(string? entityName, long delta)
    {
        if (entityName is null)
            return;
        _entityDeltas[entityName] = _entityDeltas.GetValueOrDefault(entityName) + delta;
    }

    /// <summary>What a put or patch writes: metadata and data as BSON, and the entity name the counts follow.</summary>
    private readonly record struct Content(ReadOnlyMemory<byte> Metadata, ReadOnlyMemory<byte> Data, string? EntityName);

    /// <summary>What the transaction needs of the version being replaced, copied out before any write moves it.</summary>
    private readonly record struct Existing(long Etag, string Key, string? EntityName)
    {
        public static Existing? Read(IReadTransaction tx, StorageTable docs, byte[] storageKey)
        {
            if (!tx.TryGet(docs, storageKey, out var span))
                return null;
            var record = new DocumentRecord(span);
            return new Existing(record.Etag, record.Key, record.EntityName);
        }
    }
}
