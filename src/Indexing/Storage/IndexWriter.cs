using System.Text;
using RavenLite.Indexing.Codecs;
using RavenLite.Storage;

namespace RavenLite.Indexing.Storage;

/// <summary>
/// Applies a batch of changes to an index in ONE write transaction together with the new progress etag and
/// counters, so the postings and the progress commit (or vanish) together.
/// </summary>
internal static class IndexWriter
{
    /// <summary>Runs inside the engine's write transaction; it may be run again (LMDB retries when its map grows), so it has no other effects.</summary>
    public static IndexState Apply(IndexStorage storage, IReadOnlyList<IndexChange> changes, long upToEtag,
        DateTimeOffset now, IReadOnlyList<IndexingError> errors)
    {
        return storage.Engine.Write(tx =>
        {
            var state = MetaTable.ReadState(tx, storage.Meta);
            var documents = state.DocumentCount;
            var nextDocId = state.NextDocId;
            foreach (var change in changes)
            {
                var foldedKey = Encoding.UTF8.GetBytes(change.Key.ToLowerInvariant());
                if (RemoveEntry(tx, storage, foldedKey))
                    documents--;
                if (change.Entry is not { } entry)
                    continue;
                var docId = nextDocId++;
                foreach (var (fieldTerm, positions) in entry.Postings)
                {
                    tx.Put(storage.Postings, PostingKeys.Posting(fieldTerm, docId),
                        positions is null ? [] : VarInt.EncodePositions(positions));
                }
                var docIdKey = PostingKeys.DocIdKey(docId);
                tx.Put(storage.Entries, docIdKey, EntryRecord.Build(entry.Key, entry.Etag, entry.SortValues, entry.Postings.Keys));
                tx.Put(storage.Keys, foldedKey, docIdKey);
                documents++;
            }
            var updated = state with
            {
                LastIndexedEtag = Math.Max(state.LastIndexedEtag, upToEtag),
                DocumentCount = documents,
                NextDocId = nextDocId,
                IndexedAt = now,
                ErrorCount = state.ErrorCount + errors.Count,
                LastError = errors.Count > 0 ? errors[^1] : state.LastError,
            };
            MetaTable.WriteState(tx, storage.Meta, updated);
            return updated;
        });
    }

    /// <returns>Whether the document had an entry.</returns>
    private static bool RemoveEntry(IWriteTransaction tx, IndexStorage storage, byte[] foldedKey)
    {
        if (!tx.TryGet(storage.Keys, foldedKey, out var docIdKey))
            return false;
        var docIdBytes = docIdKey.ToArray(); // spans from a write transaction do not outlive the next write
        var docId = PostingKeys.ReadDocIdKey(docIdBytes);
        if (tx.TryGet(storage.Entries, docIdBytes, out var entry))
        {
            foreach (var fieldTerm in new EntryRecord(entry).FieldTerms())
                tx.Delete(storage.Postings, PostingKeys.Posting(fieldTerm, docId));
            tx.Delete(storage.Entries, docIdBytes);
        }
        tx.Delete(storage.Keys, foldedKey);
        return true;
    }
}
