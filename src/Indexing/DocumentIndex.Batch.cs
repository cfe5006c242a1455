using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.Storage;

namespace RavenLite.Indexing;

internal sealed partial class DocumentIndex
{
    /// <summary>
    /// Indexes the items of <paramref name="batch"/> this index has not seen, and moves its progress to the
    /// batch's end, in one write transaction.
    /// </summary>
    /// <returns>False when the index was retired meanwhile or was already past the batch.</returns>
    public bool Apply(IndexingBatch batch, DateTimeOffset now)
    {
        lock (WriteLock)
        {
            var from = LastIndexedEtag;
            if (IsRetired || batch.UpToEtag <= from)
                return false;
            var changes = new List<IndexChange>(batch.Items.Count);
            var errors = new List<IndexingError>();
            var indexed = 0;
            foreach (var item in batch.Items)
            {
                if (item.Etag <= from)
                    continue;
                var entry = item.Document is { } document && Compiled.Covers(document.Document.EntityName)
                    ? BuildEntry(document, errors, now)
                    : null;
                changes.Add(new IndexChange(item.Key, entry));
                if (entry is not null)
                    indexed++;
            }
            var state = IndexWriter.Apply(Storage, changes, batch.UpToEtag, now, errors);
            Volatile.Write(ref _state, state);
            Interlocked.Add(ref _indexedSinceOpen, indexed);
            return true;
        }
    }

    private IndexEntry? BuildEntry(ParsedDocument document, List<IndexingError> errors, DateTimeOffset now)
    {
        IndexEntry entry;
#pragma warning disable CA1031 // One document that breaks the analysis must not stop the index; the error is recorded.
        try
        {
            entry = IndexEntryBuilder.Build(Compiled, document);
        }
        catch (Exception ex)
        {
            errors.Add(new IndexingError(Name, document.Document.Key, $"The document could not be indexed: {ex.Message}", now));
            return null;
        }
#pragma warning restore CA1031
        foreach (var message in entry.Errors)
            errors.Add(new IndexingError(Name, document.Document.Key, message, now));
        return entry;
    }
}
