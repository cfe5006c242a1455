using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Indexer;

/// <summary>
/// The database's indexing thread: follows the etag feed in batches and feeds every index that is behind,
/// then purges the tombstones every index has passed. Every committed write wakes it (the store's
/// <see cref="IIndexedDocuments.DocumentsChanged"/>); when idle it also re-checks the store's last etag, backing off
/// to <see cref="MaxIdleWait"/>.
/// </summary>
internal sealed partial class BackgroundIndexer : IDisposable
{
    public static readonly TimeSpan MaxIdleWait = TimeSpan.FromMilliseconds(25);
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(30);

    private readonly IIndexedDocuments _documents;
    private readonly Func<IReadOnlyList<DocumentIndex>> _indexes;
    private readonly IndexingOptions _options;
    private readonly Action<string> _log;
    private readonly Action<DocumentIndex> _rebuild;
    private readonly AutoResetEvent _wake = new(false);
    private readonly object _progressLock = new();
    private TaskCompletionSource _progressed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly object _runLock = new();
    private readonly Thread _thread;
    private readonly IndexRefresher _refresher;
    private volatile bool _stopping;
    private volatile bool _paused;
    private int _waiters;
    /// <summary>The etag of the first tombstone or replacement record not purged yet; null when there is none.</summary>
    private long? _firstUnpurged;
    private int _disposed;

    /// <param name="documents">The documents to follow.</param>
    /// <param name="indexes">The indexes to keep up to date (read again before every round).</param>
    /// <param name="options">Batch size.</param>
    /// <param name="log">Where failures are reported.</param>
    /// <param name="rebuild">Throws away an index whose storage turned out to be damaged and starts it again.</param>
    public BackgroundIndexer(IIndexedDocuments documents, Func<IReadOnlyList<DocumentIndex>> indexes, IndexingOptions options,
        Action<string> log, Action<DocumentIndex> rebuild)
    {
        _rebuild = rebuild;
        _documents = documents;
        _indexes = indexes;
        _options = options;
        _log = log;
        Failures = new IndexingFailures(log, options.TimeProvider);
        _thread = new Thread(Run) { IsBackground = true, Name = "RavenLite indexer" };
        _refresher = new IndexRefresher(OnRefreshed, log);
    }

    /// <summary>What the indexer could not do, per index, for the statistics, the log and waited queries.</summary>
    public IndexingFailures Failures { get; }

    public void Start()
    {
        _firstUnpurged = FirstUnpurgedAfter(0);
        _documents.DocumentsChanged += OnDocumentsChanged;
        _thread.Start();
    }

    private void OnDocumentsChanged(long etag) => Wake();

    /// <summary>
    /// Queries see more: waiters check again, and the indexer is woken, so a refresh asked for while this one ran
    /// (which was not queued twice) is asked for again.
    /// </summary>
    private void OnRefreshed()
    {
        NotifyProgress();
        Wake();
    }

    /// <summary>Asks the indexer to look for new documents now rather than at its next poll.</summary>
    public void Wake()
    {
        if (Volatile.Read(ref _disposed) == 0)
            _wake.Set();
    }

    /// <summary>
    /// Waits until <paramref name="caughtUp"/> holds, checking each time the indexer shows queries more.
    /// </summary>
    /// <returns>False when <paramref name="timeout"/> passed first.</returns>
    public bool WaitFor(Func<bool> caughtUp, TimeSpan timeout)
    {
        var time = _options.TimeProvider;
        var deadline = time.GetUtcNow() + timeout;
        WaitBegins();
        try
        {
            lock (_progressLock)
            {
                while (!caughtUp())
                {
                    var left = deadline - time.GetUtcNow();
                    if (left <= TimeSpan.Zero || _stopping)
                        return caughtUp();
                    Wake();
                    Monitor.Wait(_progressLock, left < MaxIdleWait ? left : MaxIdleWait);
                }
                return true;
            }
        }
        finally
        {
            WaitEnds();
        }
    }

    /// <summary>
    /// Says a query waits for the indexes to catch up: until <see cref="WaitEnds"/>, the indexer shows queries what it
    /// indexed as soon as it reaches the database's last etag, rather than at its refresh interval.
    /// </summary>
    public void WaitBegins() => Interlocked.Increment(ref _waiters);

    /// <summary>Ends what <see cref="WaitBegins"/> began.</summary>
    public void WaitEnds() => Interlocked.Decrement(ref _waiters);

    /// <summary>How many waits <see cref="WaitBegins"/> began and have not ended.</summary>
    public int Waiters => Volatile.Read(ref _waiters);

    private void Run()
    {
        var idleWait = TimeSpan.FromMilliseconds(1);
        while (!_stopping)
        {
            bool worked = false;
#pragma warning disable CA1031 // The indexer thread must survive any failure: it logs it, backs off and tries again.
            try
            {
                lock (_runLock)
                {
                    if (!_paused)
                    {
                        worked = RunOnce();
                        Failures.Progressed(IndexingFailures.Indexer);
                    }
                }
            }
            catch (Exception ex)
            {
                if (_stopping)
                    break; // the database is closing under the batch
                Failures.Failed(IndexingFailures.Indexer, _indexes().Select(i => i.WrittenEtag).DefaultIfEmpty().Min() + 1, ex);
                worked = false;
                idleWait = MaxIdleWait;
            }
#pragma warning restore CA1031
            if (worked)
            {
                idleWait = TimeSpan.FromMilliseconds(1);
                continue;
            }
            _wake.WaitOne(idleWait);
            idleWait = idleWait * 2 < MaxIdleWait ? idleWait * 2 : MaxIdleWait;
        }
    }

    /// <summary>For tests that must see a stale index: no batch starts until <see cref="Resume"/>.</summary>
    internal void Pause()
    {
        _paused = true;
        lock (_runLock)
        {
            // waits for the batch in progress, if any
        }
    }

    internal void Resume()
    {
        _paused = false;
        Wake();
    }

    /// <summary>
    /// Completes when the indexer next shows queries more (or stops). Read it before checking progress, so a batch
    /// committed in between is not missed.
    /// </summary>
    public Task NextProgress => Volatile.Read(ref _progressed).Task;

    private void NotifyProgress()
    {
        lock (_progressLock)
            Monitor.PulseAll(_progressLock);
        Interlocked.Exchange(ref _progressed, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously))
            .TrySetResult();
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        _stopping = true;
        _documents.DocumentsChanged -= OnDocumentsChanged;
        _wake.Set();
        NotifyProgress();
        if (_thread.IsAlive && !_thread.Join(s_stopTimeout))
            _log($"The indexer thread did not stop within {s_stopTimeout.TotalSeconds} s.");
        _refresher.Dispose();
        _wake.Dispose();
    }
}
