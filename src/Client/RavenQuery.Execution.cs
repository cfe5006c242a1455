using RavenLite.Client.Backend;

namespace RavenLite.Client;

public sealed partial class RavenQuery<T>
{
    /// <summary>The most a server returns in one page; <see cref="Stream"/> asks for pages this big.</summary>
    private const int StreamPageSize = 1024;

    /// <summary>
    /// Runs the query: every match after <see cref="Skip"/>, at most <see cref="Take"/>, in one round trip when they fit
    /// in one page (1,024) and in pages that continue where the last ended otherwise. The results enter the session's
    /// identity map: an entity already loaded is returned as that instance.
    /// </summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    /// <exception cref="QueryException">The query cannot be parsed.</exception>
    /// <exception cref="TimeoutException">Waiting for non-stale results took longer than the timeout.</exception>
    public List<T> ToList()
    {
        var page = RunShaped([]);
        var results = Tracked(page);
        while (More(page, results.Count) is { } next)
        {
            page = Received(RunQuery(_indexName, next, Shape([])));
            results.AddRange(Tracked(page));
        }
        return results;
    }

    /// <inheritdoc cref="ToList"/>
    /// <param name="cancellationToken">Cancels the wait for the server or the index.</param>
    public async Task<List<T>> ToListAsync(CancellationToken cancellationToken = default)
    {
        var page = await RunShapedAsync([], cancellationToken).ConfigureAwait(false);
        var results = Tracked(page);
        while (More(page, results.Count) is { } next)
        {
            page = Received(await RunQueryAsync(_indexName, next, Shape([]), cancellationToken).ConfigureAwait(false));
            results.AddRange(Tracked(page));
        }
        return results;
    }

    /// <summary>The first page: all that is wanted, up to the largest page a server returns.</summary>
    private IndexQuery FirstPage() => Build(_continuation is null ? _skip : 0, Math.Min(_take ?? StreamPageSize, StreamPageSize), _continuation);

    /// <summary>The page after <paramref name="page"/> when more are wanted and there are more; else null.</summary>
    private IndexQuery? More(QueryPage page, int received)
    {
        var wanted = page.Results.Count + page.Projections.Count > 0 && (_take is not { } take || received < take);
        // A scored query has no continuation: its next page starts where this one ended.
        if (_byScore)
            return wanted && _skip + received < page.TotalResults ? Build(_skip + received, Math.Min((_take ?? int.MaxValue) - received, StreamPageSize), null) : null;
        return wanted && page.Continuation is { } continuation
            ? Build(0, Math.Min((_take ?? int.MaxValue) - received, StreamPageSize), continuation)
            : null;
    }

    private List<T> Tracked(QueryPage page)
    {
        _session.ReserveTracking(page.Results.Count);
        var results = new List<T>(page.Results.Count);
        foreach (var document in page.Results)
            results.Add(_session.Track<T>(document));
        return results;
    }

    /// <summary>
    /// Every match (after <see cref="Skip"/>, at most <see cref="Take"/>), fetched lazily in pages of 1,024 that
    /// continue where the last ended, so walking a large result costs what its first page does per page. One
    /// request against the session's limit however many pages. Results are not added to the identity map (a walk
    /// over everything would hold everything); an entity the session already tracks is returned as that instance.
    /// </summary>
    public IEnumerable<T> Stream()
    {
        ThrowIfIncludes();
        _session.CountRequest();
        return Walk();
    }

    private IEnumerable<T> Walk()
    {
        ThrowIfNonFinite(_nonFinite);
        var remaining = _take ?? int.MaxValue;
        var continuation = _continuation;
        var first = true;
        var taken = 0;
        while (remaining > 0)
        {
            var start = _byScore ? _skip + taken : first && continuation is null ? _skip : 0;
            var page = RunQuery(_indexName, Build(start, Math.Min(remaining, StreamPageSize), _byScore ? null : continuation));
            first = false;
            Record(page);
            foreach (var document in page.Results)
            {
                if (remaining-- <= 0)
                    yield break;
                taken++;
                yield return _session.Peek<T>(document);
            }
            continuation = page.Continuation;
            if (_byScore ? page.Results.Count == 0 || _skip + taken >= page.TotalResults : continuation is null)
                yield break;
        }
    }

    /// <inheritdoc cref="Stream"/>
    /// <param name="cancellationToken">Cancels the wait for the next page.</param>
    public IAsyncEnumerable<T> StreamAsync(CancellationToken cancellationToken = default)
    {
        ThrowIfIncludes();
        _session.CountRequest();
        return WalkAsync(cancellationToken);
    }

    private async IAsyncEnumerable<T> WalkAsync([System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await ThrowIfNonFiniteAsync(_nonFinite, cancellationToken).ConfigureAwait(false);
        var remaining = _take ?? int.MaxValue;
        var continuation = _continuation;
        var first = true;
        var taken = 0;
        while (remaining > 0)
        {
            var start = _byScore ? _skip + taken : first && continuation is null ? _skip : 0;
            var page = await RunQueryAsync(_indexName, Build(start, Math.Min(remaining, StreamPageSize), _byScore ? null : continuation), cancellationToken)
                .ConfigureAwait(false);
            first = false;
            Record(page);
            foreach (var document in page.Results)
            {
                if (remaining-- <= 0)
                    yield break;
                taken++;
                yield return _session.Peek<T>(document);
            }
            continuation = page.Continuation;
            if (_byScore ? page.Results.Count == 0 || _skip + taken >= page.TotalResults : continuation is null)
                yield break;
        }
    }

    private void Record(QueryPage page)
    {
        Annotate(page);
        if (_statistics is not { } statistics)
            return;
        statistics.IndexName = page.IndexName;
        statistics.TotalResults = page.TotalResults;
        statistics.SkippedResults = page.SkippedResults;
        statistics.IsStale = page.IsStale;
        statistics.IndexEtag = page.IndexEtag;
        statistics.IndexTimestamp = page.IndexTimestamp;
        statistics.PageSize = page.PageSize;
        statistics.Continuation = page.Continuation;
    }

    /// <summary>
    /// Refuses the query when one of its matches holds a value the order or aggregate of a float or double member cannot
    /// place as C# does: NaN or an infinity, which the serializer writes as text and the index keeps beside the numbers
    /// (<see cref="Querying.TypedTranslator.NonFiniteClause"/>). One count per such member, before the first page.
    /// </summary>
    private void ThrowIfNonFinite(IEnumerable<(string Clause, string Refusal)> checks)
    {
        foreach (var (clause, refusal) in checks)
        {
            if (RunQuery(_indexName, Probe(clause)).TotalResults > 0)
                throw new NotSupportedException(refusal);
        }
    }

    /// <inheritdoc cref="ThrowIfNonFinite"/>
    private async Task ThrowIfNonFiniteAsync(IEnumerable<(string Clause, string Refusal)> checks, CancellationToken cancellationToken)
    {
        foreach (var (clause, refusal) in checks)
        {
            if ((await RunQueryAsync(_indexName, Probe(clause), cancellationToken).ConfigureAwait(false)).TotalResults > 0)
                throw new NotSupportedException(refusal);
        }
    }

    /// <summary>A count of this query's matches that also match <paramref name="clause"/>.</summary>
    private IndexQuery Probe(string clause)
    {
        var probe = Clone();
        probe._clauses.Add(Querying.QueryClause.FromText(clause));
        probe._sort.Clear();
        return probe.Build(0, 0, null);
    }

    /// <summary>
    /// For a float or double member of a collection query whose NaN and infinities the serializer writes as text: the
    /// clause matching them and the refusal to give when a match holds one (<see cref="ThrowIfNonFinite"/>); else null.
    /// </summary>
    internal (string Clause, string Refusal)? NonFiniteCheck(System.Linq.Expressions.LambdaExpression member, string use) =>
        _typed && _session.Translator.NonFiniteClause(member) is { } clause ? (clause, NonFiniteRefusal(member, use)) : null;

    private static string NonFiniteRefusal(System.Linq.Expressions.LambdaExpression member, string use) =>
        $"The query is {use} '{member}', and a match holds NaN or an infinity there: the serializer writes those as text " +
        "(JSON has no such numbers), which the index keeps apart from the member's numbers, so it cannot place them as C# does. " +
        "Order or aggregate on the client after the query (AsEnumerable()), or leave such values out with a condition.";
}
