namespace RavenLite.Indexing.Indexer;

/// <summary>
/// The thread that shows queries what the indexer wrote: a near-real-time refresh writes the writer's buffered
/// documents out as a segment, which costs about as much as indexing them. Run here, it overlaps with the indexer
/// adding the next batches (Lucene takes documents added during a refresh into the segment after it) instead of
/// stopping it; during a bulk insert that takes a third of the indexing work off the indexer's thread.
/// </summary>
internal sealed class IndexRefresher : IDisposable
{
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(30);

    private readonly Queue<DocumentIndex> _requests = new();
    private readonly object _lock = new();
    private readonly Action _refreshed;
    private readonly Action<string> _log;
    private readonly Thread _thread;
    private bool _stopping;
    private int _disposed;

    /// <param name="refreshed">Runs after each refresh that showed queries more (on this thread).</param>
    /// <param name="log">Where an unexpected failure is reported.</param>
    public IndexRefresher(Action refreshed, Action<string> log)
    {
        _refreshed = refreshed;
        _log = log;
        _thread = new Thread(Run) { IsBackground = true, Name = "RavenLite refresh" };
        _thread.Start();
    }

    /// <summary>Queues a refresh of <paramref name="index"/>, which <see cref="DocumentIndex.RefreshDue"/> said is due.</summary>
    public void Request(DocumentIndex index)
    {
        lock (_lock)
        {
            if (_stopping)
                return;
            _requests.Enqueue(index);
            Monitor.Pulse(_lock);
        }
    }

    private void Run()
    {
        while (Next() is { } index)
        {
#pragma warning disable CA1031 // A failed refresh is kept by the index for the indexer thread; nothing else may stop this thread.
            try
            {
                if (index.Refresh())
                    _refreshed();
            }
            catch (Exception ex)
            {
                _log($"Index '{index.Name}': showing queries the indexed documents failed: {ex.Message}");
            }
#pragma warning restore CA1031
        }
    }

    private DocumentIndex? Next()
    {
        lock (_lock)
        {
            while (_requests.Count == 0 && !_stopping)
                Monitor.Wait(_lock);
            return _stopping ? null : _requests.Dequeue();
        }
    }

    /// <summary>Stops after the refresh in progress, if any; queued refreshes are dropped (closing commits anyway).</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        lock (_lock)
        {
            _stopping = true;
            Monitor.PulseAll(_lock);
        }
        if (_thread.IsAlive && !_thread.Join(s_stopTimeout))
            _log($"The refresh thread did not stop within {s_stopTimeout.TotalSeconds} s.");
    }
}
