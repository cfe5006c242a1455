using System.Runtime.CompilerServices;

namespace RavenLite.Database;

public sealed partial class DocumentDatabase
{
    /// <summary>How many changes the feed reads from storage per read transaction.</summary>
    internal const int ChangesBatchSize = 1024;

    // Never disposed: a feed starting as the database closes may still link to its token (it has no timer to release).
    private readonly CancellationTokenSource _closing = new();
    private ChangeSignal? _changeSignal;

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
        var reported = IndexEtags();
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var documentsChanged = signal.Next;
            var indexesProgressed = Indexes.NextIndexingProgress;
            var batch = ReadChanges(last);
            if (batch is null)
                yield break;
            foreach (var change in batch)
            {
                yield return change;
                last = change.Etag;
            }
            foreach (var caughtUp in IndexesCaughtUp(reported, last))
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

    private Dictionary<string, long> IndexEtags() =>
        GetIndexStatistics().ToDictionary(index => index.Name, index => index.LastIndexedEtag, StringComparer.OrdinalIgnoreCase);

    /// <summary>Indexes that are not stale and reached an etag the feed has already delivered (so events stay in order).</summary>
    private List<DatabaseChange> IndexesCaughtUp(Dictionary<string, long> reported, long delivered)
    {
        var events = new List<DatabaseChange>();
        if (_closing.IsCancellationRequested)
            return events;
        foreach (var index in GetIndexStatistics())
        {
            if (index.IsStale || index.LastIndexedEtag > delivered || index.LastIndexedEtag <= reported.GetValueOrDefault(index.Name))
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
        return signal;
    }

    /// <summary>Called first by <see cref="Dispose"/>: every changes feed ends.</summary>
    private void StopChanges()
    {
        _closing.Cancel();
        if (_changeSignal is { } signal)
            Documents.DocumentsChanged -= signal.Pulse;
    }
}
