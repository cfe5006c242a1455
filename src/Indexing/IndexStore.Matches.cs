using RavenLite.Indexing.Querying;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing;

/// <summary>Every document an index query matches, for a set operation (patch or delete by query).</summary>
/// <param name="IndexName">The index that answered (for <c>dynamic/...</c>, the one it resolved to).</param>
/// <param name="Keys">The matching documents' keys, in index order, each once.</param>
/// <param name="IsStale">Whether the index had not yet indexed every write when it answered.</param>
/// <param name="IndexEtag">The etag up to which the index had indexed.</param>
/// <param name="DatabaseEtag">The database's last etag, read just before the index answered.</param>
internal sealed record IndexMatches(string IndexName, IReadOnlyList<string> Keys, bool IsStale, long IndexEtag, long DatabaseEtag);

internal sealed partial class IndexStore
{
    private const int MatchPage = 4096;

    /// <summary>
    /// The keys of every document <paramref name="queryText"/> matches on index <paramref name="indexName"/>, read from
    /// one searcher (a consistent snapshot of the index) page by page past the previous page's last etag, without
    /// loading any document.
    /// </summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    /// <exception cref="QueryException">The query cannot be parsed.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    public IndexMatches Matches(string indexName, string? queryText, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(indexName);
        var (resolvedName, query) = Resolve(indexName, new IndexQuery { Query = queryText });
        for (var attempt = 0; ; attempt++)
        {
            var index = GetIndex(resolvedName);
            try
            {
                return Matches(index, query.Query, cancellationToken);
            }
            catch (ObjectDisposedException) when (index.IsRetired && attempt == 0)
            {
                // The index was reset or redefined meanwhile: ask the one that replaced it.
            }
        }
    }

    private IndexMatches Matches(DocumentIndex index, string? queryText, CancellationToken cancellationToken)
    {
        var parsed = index.ParseQuery(queryText);
        var databaseEtag = _documents.LastEtag;
        var state = index.State;
        var lucene = index.Lucene;
        var searcher = lucene.Searchers.Acquire();
        var keys = new List<string>();
        try
        {
            PageAfter? after = null;
            while (true)
            {
                var page = PageSearch.Run(searcher, lucene.Segments, parsed, [], 0, MatchPage, after, cancellationToken);
                foreach (var version in page.Versions)
                    keys.Add(version.Key);
                if (!page.HasMore || page.Last is null)
                    break;
                after = page.Last;
            }
        }
        finally
        {
            lucene.Searchers.Release(searcher);
        }
        return new IndexMatches(index.Name, keys, state.LastIndexedEtag < databaseEtag, state.LastIndexedEtag, databaseEtag);
    }
}
