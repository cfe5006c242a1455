using System.Diagnostics;
using Lucene.Net.Search;
using LuceneDocument = Lucene.Net.Documents.Document;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.Persistence;

namespace RavenLite.Indexing;

internal sealed partial class DocumentIndex
{
    /// <summary>
    /// Indexes the items of <paramref name="batch"/> this index has not seen: every version the batch's writes replaced
    /// or deleted is deleted by its etag (<see cref="IndexingBatch.ReplacedAfter"/>, one delete for the whole batch, made
    /// before its documents are added), and each document the index covers is added. Commits when a commit is due
    /// (<see cref="CommitIfDue"/>). Queries see the batch from the next <see cref="Refresh"/>; a batch that deletes waits
    /// for a refresh under way, and a refresh cannot begin while it is applied (it takes the write lock to begin), so
    /// no refresh shows a batch's deletes without its documents. Replaying batches after a crash is harmless:
    /// the index is back at its last commit, and the same versions are deleted and added again.
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
            var replaced = _reducer is null ? batch.ReplacedAfter(from) : null;
            while (replaced is not null && _refreshesRunning > 0)
                Monitor.Wait(WriteLock);
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
                    if (replaced is not null)
                        lucene.Writer.DeleteDocuments(new ConstantScoreQuery(new IndexedVersionsFilter([.. replaced], lucene.Segments)));
                    var problems = new List<string>();
                    foreach (var item in batch.Items)
                    {
                        if (item.Etag <= from)
                            continue;
                        if (item.Unreadable is { } why)
                            errors.Add(new IndexingError(Name, item.Key, $"The stored document could not be read ({why}); it is left out of the index.", now, item.Etag));
                        if (item.Document is { } document && Compiled.Covers(document.Header.EntityName)
                            && Map(document, problems, errors, now) is { } mapped)
                        {
                            lucene.Writer.AddDocument(mapped);
                            indexed++;
                        }
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
