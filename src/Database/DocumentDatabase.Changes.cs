using System.Runtime.CompilerServices;
using RavenLite.Storage.Documents;

namespace RavenLite.Database;

public sealed partial class DocumentDatabase
{
    /// <summary>How many changes the feed reads from storage per read transaction.</summary>
    internal const int ChangesBatchSize = 1024;

    // Never disposed: a feed starting as the database closes may still link to its token (it has no timer to release).
    private readonly CancellationTokenSource _closing = new();
    private ChangeSignal? _changeSignal;
    private readonly System.Collections.Concurrent.ConcurrentDictionary<FeedPosition, byte> _openFeeds = new();

    /// <summary>
    /// The changes feed: every document put and delete with an etag greater than <paramref name="fromEtag"/>, history
    /// first (read from the etag table in batches) and then live as writes commit, in etag order, each once, with no
    /// gap or repeat where history turns live; plus <see cref="ChangeKind.IndexCaughtUp"/> events when an index has
    /// indexed everything the feed has delivered. A consumer that falls behind only reads further back in storage: writers
    /// never wait for it and nothing is buffered for it. Ends when the database closes.
    /// </summary>
    /// <param name="fromEtag">The etag of the last change already seen (0: from the beginning).</param>
    /// <param name="cancellationToken">Stops the feed (with an <see cref="OperationCanceledException"/>).</param>
    /// <example>
    /// <code>
    /// await foreach (var change in db.Changes(fromEtag: lastSeen, cancellationToken))
    ///     Console.WriteLine($"{change.Kind} {change.Key} at {change.Etag}");
    /// </code>
    /// </example>
    public async IAsyncEnumerable<DatabaseChange> Changes(long fromEtag = 0, [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(fromEtag);
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        var signal = ChangeSignalOrStart();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, _closing.Token);
        var last = fromEtag;
        var reported = new Dictionary<string, long>(StringComparer.OrdinalIgnoreCase);
        var position = new FeedPosition { Etag = fromEtag };
        _openFeeds.TryAdd(position, 0);
        try
        {
            while (true)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var documentsChanged = signal.Next;
                if (_closing.IsCancellationRequested || Volatile.Read(ref _indexes) is not { } indexes)
                    yield break;
                var indexesProgressed = indexes.NextIndexingProgress;
                var batch = ReadChanges(last);
                if (batch is null)
                    yield break;
                foreach (var change in batch)
                {
                    yield return change;
                    last = change.Etag;
                    Volatile.Write(ref position.Etag, last);
                }
                foreach (var caughtUp in IndexesCaughtUp(reported, fromEtag, last))
                    yield return caughtUp;
                if (batch.Count == ChangesBatchSize)
                    continue;
                try
                {
                    await Task.WhenAny(documentsChanged, indexesProgressed).WaitAsync(stop.Token).ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
                {
                    yield break; // the database is closing
                }
            }
        }
        finally
        {
            _openFeeds.TryRemove(position, out _);
        }
    }

    /// <summary>For tests: how many changes feeds are open (being read, or waiting for a change).</summary>
    internal int OpenChangesFeeds => _openFeeds.Count;

    /// <summary>The last etag the slowest open feed delivered: deletes after it must not be purged yet.</summary>
    private long SlowestFeed()
    {
        var slowest = long.MaxValue;
        foreach (var feed in _openFeeds.Keys)
            slowest = Math.Min(slowest, Volatile.Read(ref feed.Etag));
        return slowest;
    }

    /// <summary>Where one open feed is: the etag of the last change it delivered.</summary>
    private sealed class FeedPosition
    {
        public long Etag;
    }

    /// <summary>The next batch after <paramref name="etag"/>; null once the database has closed.</summary>
    private IReadOnlyList<DatabaseChange>? ReadChanges(long etag)
    {
        if (_closing.IsCancellationRequested)
            return null;
        try
        {
            return Documents.GetChangesAfterEtag(etag, ChangesBatchSize);
        }
        catch (ObjectDisposedException)
        {
            return null;
        }
    }

    /// <summary>
    /// Indexes that are not stale and reached an etag past the feed's start and past what was reported, but not past what
    /// the feed has delivered (so an index event follows the changes it covers).
    /// </summary>
    private List<DatabaseChange> IndexesCaughtUp(Dictionary<string, long> reported, long fromEtag, long delivered)
    {
        var events = new List<DatabaseChange>();
        if (_closing.IsCancellationRequested || Volatile.Read(ref _indexes) is not { } indexes)
            return events;
        IReadOnlyList<Indexing.IndexStatistics> statistics;
        try
        {
            statistics = indexes.GetStatistics();
        }
        catch (ObjectDisposedException)
        {
            return events; // closing
        }
        foreach (var index in statistics)
        {
            if (index.IsStale || index.LastIndexedEtag > delivered || index.LastIndexedEtag <= reported.GetValueOrDefault(index.Name, fromEtag))
                continue;
            reported[index.Name] = index.LastIndexedEtag;
            events.Add(new DatabaseChange(ChangeKind.IndexCaughtUp, index.LastIndexedEtag, null, null, index.Name));
        }
        return events;
    }

    private ChangeSignal ChangeSignalOrStart()
    {
        if (Volatile.Read(ref _changeSignal) is { } existing)
            return existing;
        var signal = new ChangeSignal();
        if (Interlocked.CompareExchange(ref _changeSignal, signal, null) is { } winner)
            return winner;
        Documents.DocumentsChanged += signal.Pulse;
        Documents.KeepTombstonesAfter(SlowestFeed);
        return signal;
    }

    /// <summary>Called first by <see cref="Dispose"/>: every changes feed ends.</summary>
    private void StopChanges()
    {
        _closing.Cancel();
        if (_changeSignal is { } signal)
            Documents.DocumentsChanged -= signal.Pulse;
    }

    /// <inheritdoc cref="DocumentStore.LastEtag"/>
    public long LastEtag => Documents.LastEtag;

    /// <inheritdoc cref="DocumentStore.GetDocumentsAfterEtag(long, int)"/>
    public IReadOnlyList<Document> GetDocumentsAfterEtag(long etag, int maxCount) => Documents.GetDocumentsAfterEtag(etag, maxCount);

    /// <inheritdoc cref="DocumentStore.GetDocumentsAfterEtag(long, int, bool)"/>
    public IReadOnlyList<Document> GetDocumentsAfterEtag(long etag, int maxCount, bool addToCache) =>
        Documents.GetDocumentsAfterEtag(etag, maxCount, addToCache);

    /// <inheritdoc cref="DocumentStore.GetTombstonesAfterEtag"/>
    public IReadOnlyList<Tombstone> GetTombstonesAfterEtag(long etag, int maxCount) => Documents.GetTombstonesAfterEtag(etag, maxCount);
}
