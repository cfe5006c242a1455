using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing;

public sealed partial class IndexStore
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

    private static IndexStatistics Statistics(DocumentIndex index, long databaseLastEtag)
    {
        var state = index.State;
        return new IndexStatistics(index.Name, index.IsBuiltIn, state.DocumentCount, state.LastIndexedEtag, databaseLastEtag,
            state.LastIndexedEtag < databaseLastEtag, state.IndexedAt, state.ErrorCount, state.LastError, index.IndexedSinceOpen);
    }
}
