using System.Diagnostics;
using Lucene.Net.Index;
using LuceneDocument = Lucene.Net.Documents.Document;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.Persistence;

namespace RavenLite.Indexing;

internal sealed partial class DocumentIndex
{
    /// <summary>
    /// Indexes the items of <paramref name="batch"/> this index has not seen (<c>UpdateDocument</c> by key, or a delete
    /// by key for deletions and documents outside the index; <c>AddDocument</c>, or nothing for a deletion, when the key
    /// cannot be in the index: <see cref="AddedKeys"/>) and commits when a commit is due (<see cref="CommitIfDue"/>).
    /// Queries see the batch from the next <see cref="Refresh"/>. Replaying batches after a crash is harmless: each
    /// document is replaced by key.
    /// </summary>
    /// <param name="batch">The changes to index.</param>
    /// <param name="now">The time of the batch.</param>
    /// <param name="catchingUp">Whether the database has changes after the batch: refreshes and commits are spaced out
    /// while it has (<see cref="IndexingOptions.CatchUpIntervalFactor"/>).</param>
    /// <returns>False when the index was retired meanwhile or was already past the batch.</returns>
    public bool Apply(IndexingBatch batch, DateTimeOffset now, bool catchingUp = false)
    {
        lock (WriteLock)
        {
            var from = WrittenEtag;
            if (IsRetired || batch.UpToEtag <= from)
                return false;
            _catchingUp = catchingUp;
            var errors = new List<IndexingError>();
            var indexed = 0;
            var lucene = Lucene;
            try
            {
                if (_reducer is not null)
                {
                    indexed = _reducer.Apply(lucene, batch, from, errors, now, _addedKeys);
                }
                else
                {
                    var problems = new List<string>();
                    foreach (var item in batch.Items)
                    {
                        if (item.Etag <= from)
                            continue;
                        var key = IndexFields.KeyTerm(item.Key);
                        var slot = _addedKeys is null ? default : AddedKeys.Locate(key);
                        var mayHold = _addedKeys?.MayContain(slot) ?? true;
                        if (item.Unreadable is { } why)
                            errors.Add(new IndexingError(Name, item.Key, $"The stored document could not be read ({why}); it is left out of the index.", now, item.Etag));
                        var mapped = item.Document is { } document && Compiled.Covers(document.Header.EntityName)
                            ? Map(document, problems, errors, now)
                            : null;
                        if (mapped is null)
                        {
                            if (mayHold)
                                lucene.Writer.DeleteDocuments(new Term(IndexFields.Key, key));
                            continue;
                        }
                        if (mayHold)
                        {
                            lucene.Writer.UpdateDocument(new Term(IndexFields.Key, key), mapped);
                        }
                        else
                        {
                            _addedKeys!.Add(slot);
                            lucene.Writer.AddDocument(mapped);
                        }
                        indexed++;
                    }
                }
                var state = _written;
                Volatile.Write(ref _written, new IndexState(
                    Math.Max(from, batch.UpToEtag), 0, now, state.ErrorCount + errors.Count, errors.Count > 0 ? errors[^1] : state.LastError));
                _unpublished = true;
                _uncommittedBatches++;
                if (CommitDue)
                    CommitPending();
            }
            catch (Exception ex) when (ex is not ObjectDisposedException || !IsRetired)
            {
                if (RolledBack(ex) is var mapped && mapped != ex)
                    throw mapped;
                throw;
            }
            Interlocked.Add(ref _indexedSinceOpen, indexed);
            return true;
        }
    }

    private LuceneDocument? Map(ParsedDocument document, List<string> problems, List<IndexingError> errors, DateTimeOffset now)
    {
        problems.Clear();
        LuceneDocument mapped;
#pragma warning disable CA1031 // One document that cannot be read or mapped must not stop the index; the error is recorded.
        try
        {
            mapped = _mapper.Map(document, problems);
        }
        catch (Exception ex)
        {
            errors.Add(new IndexingError(Name, document.Key, $"The document could not be indexed: {ex.Message}", now, document.Etag));
            return null;
        }
#pragma warning restore CA1031
        foreach (var message in problems)
            errors.Add(new IndexingError(Name, document.Key, message, now, document.Etag));
        return mapped;
    }
}
