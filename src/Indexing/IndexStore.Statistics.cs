using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing;

internal sealed partial class IndexStore
{
    /// <summary>
    /// Every index's statistics, ordered by name; an index that could not be opened at all is listed too, stale, with
    /// the failure as its last error.
    /// </summary>
    public IReadOnlyList<IndexStatistics> GetStatistics()
    {
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        var lastEtag = _documents.LastEtag;
        var indexes = Volatile.Read(ref _indexes);
        return [.. indexes.Values.Select(i => Statistics(i, lastEtag))
            .Concat(_unavailable.Where(u => !indexes.ContainsKey(u.Key))
                .Select(u => new IndexStatistics(u.Key, IndexName.IsReserved(u.Key), 0, 0, lastEtag, true, null, 1, u.Value, 0)))
            .OrderBy(s => s.Name, StringComparer.OrdinalIgnoreCase)];
    }

    /// <summary>One index's statistics.</summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    public IndexStatistics GetStatistics(string name)
    {
        var index = GetIndex(name);
        return Statistics(index, _documents.LastEtag);
    }

    /// <summary>
    /// The index's committed progress and errors, with what the indexer could not do since the database opened: the
    /// last failure counts as its last error when it is the newer one, each run of failures counts once, and
    /// <see cref="IndexStatistics.FailingSince"/> is set while the index (or the indexer as a whole) cannot make progress.
    /// </summary>
    private IndexStatistics Statistics(DocumentIndex index, long databaseLastEtag)
    {
        var state = index.State;
        var failures = _indexer.Failures;
        var failure = failures.Last(index.Name);
        var lastError = failure is not null && (state.LastError is null || failure.At > state.LastError.At) ? failure : state.LastError;
        var failingSince = failures.FailingSince(index.Name) ?? failures.FailingSince(IndexingFailures.Indexer);
        return new IndexStatistics(index.Name, index.IsBuiltIn, state.DocumentCount, state.LastIndexedEtag, databaseLastEtag,
            state.LastIndexedEtag < databaseLastEtag, state.IndexedAt, state.ErrorCount + failures.Episodes(index.Name), lastError,
            index.IndexedSinceOpen)
        {
            FailingSince = failingSince,
        };
    }
}
