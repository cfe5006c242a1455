using System.Diagnostics;
using LuceneQuery = Lucene.Net.Search.Query;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.MapReduce;
using RavenLite.Indexing.Persistence;
using RavenLite.Indexing.Querying;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing;

internal sealed partial class IndexStore
{
    /// <summary>
    /// Runs <paramref name="query"/> on the index named <paramref name="indexName"/>: the matching documents'
    /// keys and indexed etags come from a Lucene searcher (per-segment DocValues arrays, no stored fields), then the page of
    /// documents is loaded in one read transaction of the database, through the document cache.
    /// </summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    /// <exception cref="QueryException">The query cannot be parsed, or names a field the index does not have.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A negative start or page size, or a timeout that is not positive.</exception>
    /// <exception cref="ArgumentException">A sort field that is not sortable, or a continuation token that is not this query's.</exception>
    /// <exception cref="TimeoutException">Waiting for non-stale results took longer than the timeout.</exception>
    public QueryResult Query(string indexName, IndexQuery query)
    {
        ArgumentNullException.ThrowIfNull(indexName);
        ArgumentNullException.ThrowIfNull(query);
        (indexName, query) = Resolve(indexName, query);
        var started = Stopwatch.GetTimestamp();
        var paging = CheckPaging(query);
        if (query.WaitForNonStaleResults)
            WaitForNonStale(GetIndex(indexName), query.Timeout ?? _options.DefaultWaitTimeout);
        return Search(indexName, query, paging, started, Stopwatch.GetTimestamp() - started);
    }

    /// <summary>
    /// As <see cref="Query(string, IndexQuery)"/>, but a wait for non-stale results (<see cref="IndexQuery.WaitForNonStaleResults"/>)
    /// holds no thread: the search runs once the index has caught up. The result carries the index's
    /// <see cref="QueryResult.Version"/>, so a caller needs no other call to tag or cache the answer.
    /// </summary>
    /// <inheritdoc cref="Query(string, IndexQuery)"/>
    /// <param name="indexName">The index to query.</param>
    /// <param name="query">What to match, which page, in what order, and whether to wait.</param>
    /// <param name="cancellationToken">Cancels the wait, and the search itself (between terms and blocks of matches).</param>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    public async Task<QueryResult> QueryAsync(string indexName, IndexQuery query, CancellationToken cancellationToken = default) =>
        Query(await PrepareAsync(indexName, query, cancellationToken).ConfigureAwait(false), cancellationToken);

    /// <summary>
    /// The first half of <see cref="QueryAsync"/>: resolves the index that answers <paramref name="query"/>, checks its
    /// paging, waits (holding no thread) for non-stale results when asked, and reads the index's version, without
    /// searching. <see cref="Query(PreparedQuery, CancellationToken)"/> runs it.
    /// </summary>
    /// <inheritdoc cref="QueryAsync"/>
    public async Task<PreparedQuery> PrepareAsync(string indexName, IndexQuery query, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(indexName);
        ArgumentNullException.ThrowIfNull(query);
        (indexName, query) = Resolve(indexName, query);
        var started = Stopwatch.GetTimestamp();
        var (pageSize, clamped) = CheckPaging(query);
        if (query.WaitForNonStaleResults)
            await WaitForNonStaleAsync(indexName, query.Timeout, cancellationToken).ConfigureAwait(false);
        cancellationToken.ThrowIfCancellationRequested();
        var index = GetIndex(indexName);
        return new PreparedQuery(index.Name, query, pageSize, clamped, started, Stopwatch.GetTimestamp() - started, ReadVersion(index).Version);
    }

    /// <summary>
    /// The database's last etag, then <paramref name="index"/>'s state, in that order (so the index never looks further
    /// ahead than it is), and the version they make.
    /// </summary>
    private (long DatabaseEtag, IndexState State, IndexVersion Version) ReadVersion(DocumentIndex index)
    {
        var databaseEtag = _documents.LastEtag;
        var state = index.State;
        return (databaseEtag, state, new IndexVersion(index.Generation, state.LastIndexedEtag, state.IndexedAt, databaseEtag));
    }

    /// <summary>Runs a query <see cref="PrepareAsync"/> prepared: one search, then the page loaded in one read.</summary>
    /// <exception cref="QueryException">The query cannot be parsed, or names a field the index does not have.</exception>
    /// <exception cref="ArgumentException">A sort field that is not sortable, or a continuation token that is not this query's.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    public QueryResult Query(PreparedQuery prepared, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(prepared);
        return Search(prepared.IndexName, prepared.Query, (prepared.PageSize, prepared.PageSizeClamped), prepared.Started, prepared.WaitTicks,
            cancellationToken);
    }

    private QueryResult Search(string indexName, IndexQuery query, (int PageSize, bool Clamped) paging, long started, long waitTicks,
        CancellationToken cancellationToken = default)
    {
        using var activity = QueryTelemetry.Source.StartActivity("ravenlite.query");
        activity?.SetTag(QueryTelemetry.IndexTag, indexName);
        for (var attempt = 0; ; attempt++)
        {
            var index = GetIndex(indexName);
            try
            {
                var result = Run(index, query, paging.PageSize, paging.Clamped, started, waitTicks, cancellationToken);
                _queryDuration.Record(result.Timings.TotalMicroseconds / 1_000_000,
                    new KeyValuePair<string, object?>(QueryTelemetry.IndexTag, result.IndexName),
                    new KeyValuePair<string, object?>(RavenLite.Storage.Caching.CacheMetrics.DatabaseTag, _documents.DatabaseName));
                if (activity is not null)
                    Tag(activity, result);
                return result;
            }
            catch (ObjectDisposedException) when (index.IsRetired && attempt == 0)
            {
                // The index was reset or redefined while the query ran: ask the one that replaced it.
            }
        }
    }

    private (int PageSize, bool Clamped) CheckPaging(IndexQuery query)
    {
        if (query.Start < 0)
            throw new ArgumentOutOfRangeException(nameof(query), query.Start, "Start cannot be negative.");
        if (query.PageSize < 0)
            throw new ArgumentOutOfRangeException(nameof(query), query.PageSize, "PageSize cannot be negative.");
        if (query.Timeout <= TimeSpan.Zero)
            throw new ArgumentOutOfRangeException(nameof(query), query.Timeout, "Timeout must be positive.");
        if (query.Continuation is not null && query.Start != 0)
            throw new ArgumentException("Give either Start or Continuation, not both: a continuation already says where the page starts.", nameof(query));
        var pageSize = query.PageSize ?? _options.DefaultPageSize;
        return pageSize > _options.MaxPageSize ? (_options.MaxPageSize, true) : (pageSize, false);
    }

    private static void Tag(Activity activity, QueryResult result)
    {
        activity.SetTag("ravenlite.query.results", result.Results.Count);
        activity.SetTag("ravenlite.query.total_results", result.TotalResults);
        activity.SetTag("ravenlite.query.cached_documents", result.Timings.CachedDocuments);
        activity.SetTag("ravenlite.query.storage_documents", result.Timings.StorageDocuments);
        activity.SetTag("ravenlite.query.stale", result.IsStale);
    }

    // prepared: a scored query built by the caller (more like this) instead of IndexQuery.Query; null: parse that.
    private QueryResult Run(DocumentIndex index, IndexQuery query, int pageSize, bool clamped, long started, long waitTicks,
        CancellationToken cancellationToken, LuceneQuery? prepared = null)
    {
        var parseStarted = Stopwatch.GetTimestamp();
        var scored = query.OrderByScore || prepared is not null;
        if (scored && query.Continuation is not null)
            throw new ArgumentException("A query ordered by score pages with Start, not with a Continuation.", nameof(query));
        var parsed = prepared ?? (scored ? index.ParseScoredQuery(query.Query) : index.ParseQuery(query.Query));
        var highlighted = query.Highlight is { } highlight ? HitHighlighter.Fields(highlight, index.QueryFields) : null;
        var sort = SortField.Parse(query.SortBy, index.QueryFields);
        var fingerprint = ContinuationToken.Fingerprint(index.Name, query.Query, sort);
        var after = query.Continuation is null
            ? null
            : ContinuationToken.Decode(query.Continuation, fingerprint, index.Generation, sort);
        var parsedAt = Stopwatch.GetTimestamp();

        // The state is published only after the searcher that sees its commit, so the searcher acquired after reading
        // it is at least as new: a caught-up state never vouches for etags an older searcher would give.
        var (databaseEtag, state, version) = ReadVersion(index);
        var lucene = index.Lucene;
        var searcher = lucene.Searchers.Acquire();
        SearchPage page;
        FieldAggregate? aggregate = null;
        IReadOnlyList<FacetResult> facets = [];
        // Checked before the search, so a bad facet costs no search.
        var facetCollector = query.Facets is { Count: > 0 } requested ? Querying.Facets.FacetCollector.Create(requested, index.QueryFields) : null;
        IReadOnlyList<Document?>? reduced = null;
        try
        {
            SortField.ThrowIfTextSortMisplacesNumbers(sort, index.QueryFields, searcher.IndexReader);
            page = scored
                ? ScoredSearch.Run(searcher, lucene.Segments, parsed, sort, query.Start, pageSize, cancellationToken)
                : PageSearch.Run(searcher, lucene.Segments, parsed, sort, query.Start, pageSize, after, cancellationToken);
            // A map/reduce index's results are not stored documents: they are read from the searcher that found them.
            if (index.IsMapReduce)
                reduced = Reducer.Load(searcher.IndexReader, page.Versions, page.Docs);
            if (query.Aggregate is { } aggregated)
                aggregate = FieldAggregator.Run(searcher, parsed, aggregated, query.AggregateSum, index.QueryFields, cancellationToken);
            if (facetCollector is not null)
                facets = facetCollector.Count(searcher, parsed, cancellationToken);
        }
        finally
        {
            lucene.Searchers.Release(searcher);
        }
        var searchedAt = Stopwatch.GetTimestamp();
        // An index that has every write up to the etag this query started at knows each document's current
        // version, so cached ones need no storage lookup; a stale index may not, so the documents are read as is.
        DocumentsRead read;
        if (page.Versions.Count == 0)
            read = new DocumentsRead([], 0, 0);
        else if (reduced is not null)
            read = new DocumentsRead(reduced, 0, 0);
        else if (state.LastIndexedEtag >= databaseEtag)
            read = _documents.GetKnownVersions(page.Versions);
        else
            read = new DocumentsRead(_documents.GetCurrent([.. page.Versions.Select(v => v.Key)]), page.Versions.Count, Stopwatch.GetTimestamp() - searchedAt);
        var (loaded, fromStorage, storageTicks) = read;
        var loadedAt = Stopwatch.GetTimestamp();
        var results = new List<Document>(loaded.Count);
        var scores = page.Scores is null ? null : new List<float>(loaded.Count);
        for (var i = 0; i < loaded.Count; i++)
        {
            if (loaded[i] is { } document)
            {
                results.Add(document);
                scores?.Add(page.Scores![i]);
            }
        }
        List<IReadOnlyDictionary<string, IReadOnlyList<string>>>? highlights = null;
        if (highlighted is not null)
        {
            var raw = scored ? parsed : index.ParseScoredQuery(query.Query);
            highlights = new(results.Count);
            foreach (var document in results)
                highlights.Add(HitHighlighter.Highlight(document, raw, highlighted, query.Highlight!));
        }
        return new QueryResult
        {
            IndexName = index.Name,
            Results = results,
            TotalResults = page.Total,
            SkippedResults = loaded.Count - results.Count,
            Start = query.Start,
            PageSize = pageSize,
            PageSizeClamped = clamped,
            IsStale = state.LastIndexedEtag < databaseEtag,
            IndexEtag = state.LastIndexedEtag,
            IndexTimestamp = state.IndexedAt,
            DatabaseEtag = databaseEtag,
            Version = version,
            Aggregate = aggregate,
            Scores = scores,
            Highlights = highlights,
            Facets = facets,
            Continuation = page.HasMore && page.Last is { } last ? ContinuationToken.Encode(fingerprint, index.Generation, last) : null,
            Timings = new QueryTimings(waitTicks, parsedAt - parseStarted, searchedAt - parsedAt, loadedAt - searchedAt,
                storageTicks, loaded.Count - fromStorage, fromStorage, Stopwatch.GetTimestamp() - started),
        };
    }

    /// <summary>Waits until the index has indexed every write the database had when the wait began.</summary>
    private void WaitForNonStale(DocumentIndex index, TimeSpan timeout)
    {
        // Read from storage: with a shared engine, the writes other servers acknowledged before the wait began count.
        var cutoff = _documents.ReadLastEtag();
        ThrowIfDeferred(index, cutoff);
        if (!_indexer.WaitFor(() => IsCaughtUp(index, cutoff), timeout))
            throw StillStale(index, timeout, cutoff);
    }

    /// <summary>
    /// Waits, without holding a thread, until index <paramref name="indexName"/> has indexed every write the
    /// database had when the wait began; then a query without <see cref="IndexQuery.WaitForNonStaleResults"/>
    /// sees them. For servers, where a blocking wait per request would tie up the thread pool.
    /// </summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    /// <exception cref="TimeoutException">It has not caught up within <paramref name="timeout"/> (default 15 s).</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    public async Task WaitForNonStaleAsync(string indexName, TimeSpan? timeout = null, CancellationToken cancellationToken = default)
    {
        var index = GetIndex(indexName);
        var limit = timeout ?? _options.DefaultWaitTimeout;
        if (limit <= TimeSpan.Zero)
            throw new ArgumentOutOfRangeException(nameof(timeout), timeout, "Timeout must be positive.");
        // Read from storage: with a shared engine, the writes other servers acknowledged before the wait began count.
        var cutoff = _documents.ReadLastEtag();
        ThrowIfDeferred(index, cutoff);
        var started = _options.TimeProvider.GetTimestamp();
        _indexer.WaitBegins();
        try
        {
            await WaitUntilCaughtUp(index, cutoff, limit, started, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _indexer.WaitEnds();
        }
    }

    private async Task WaitUntilCaughtUp(DocumentIndex index, long cutoff, TimeSpan limit, long started, CancellationToken cancellationToken)
    {
        while (true)
        {
            var progressed = _indexer.NextProgress;
            if (IsCaughtUp(index, cutoff))
                return;
            var remaining = limit - _options.TimeProvider.GetElapsedTime(started);
            if (remaining <= TimeSpan.Zero)
                throw StillStale(index, limit, cutoff);
            _indexer.Wake();
            // Progress wakes us at once; the cap re-checks an index that was reset and replaced meanwhile.
            var cap = remaining < BackgroundIndexer.MaxIdleWait ? remaining : BackgroundIndexer.MaxIdleWait;
            await Task.WhenAny(progressed, Task.Delay(cap, cancellationToken)).ConfigureAwait(false);
            cancellationToken.ThrowIfCancellationRequested();
        }
    }

    /// <summary>With indexing deferred nothing will catch up: a wait fails at once instead of at its timeout.</summary>
    private void ThrowIfDeferred(DocumentIndex index, long cutoff)
    {
        if (_options.DeferIndexing && !IsCaughtUp(index, cutoff))
            throw StillStale(index, TimeSpan.Zero, cutoff);
    }

    /// <summary>
    /// Whether the index published under <paramref name="index"/>'s name has indexed up to <paramref name="cutoff"/>:
    /// one reset or redefined meanwhile (a rebuild) is followed to its replacement, which must catch up in turn, so a
    /// waited query never runs on a replacement still building; a deleted one ends the wait (the query then finds no index).
    /// </summary>
    private bool IsCaughtUp(DocumentIndex index, long cutoff) =>
        (index.IsRetired ? Volatile.Read(ref _indexes).GetValueOrDefault(index.Name) : index) is not { } current
        || current.LastIndexedEtag >= cutoff;

    private TimeoutException StillStale(DocumentIndex index, TimeSpan timeout, long cutoff)
    {
        var reached = index.LastIndexedEtag;
        return new TimeoutException(
            $"Index '{index.Name}' is still stale after waiting {timeout.TotalSeconds:0.###} s: it has indexed up to etag {reached}, " +
            $"but the database was at etag {cutoff} when the query began ({cutoff - reached} etags behind) and is at " +
            $"{_documents.LastEtag} now.{WhyBehind(index)}");
    }

    /// <summary>The failure keeping <paramref name="index"/> from making progress, as a sentence to append; empty when none is known.</summary>
    private string WhyBehind(DocumentIndex index) =>
        _options.DeferIndexing
            ? " Indexing is deferred on this database (DeferIndexing): its indexes catch up when it is next opened without it."
            : _indexer.Failures.Current(index.Name) is { } failure
                ? $" It cannot make progress: {failure.Message} (last attempt at {failure.At:u})."
                : "";
}
