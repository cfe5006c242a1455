namespace RavenLite.Indexing;

public sealed partial class IndexStore
{
    /// <summary>Every index's statistics, ordered by name.</summary>
    public IReadOnlyList<IndexStatistics> GetStatistics()
    {
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        var lastEtag = _documents.LastEtag;
        return [.. Volatile.Read(ref _indexes).Values
            .OrderBy(i => i.Name, StringComparer.OrdinalIgnoreCase)
            .Select(i => Statistics(i, lastEtag))];
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
