namespace RavenLite.Storage.Lmdb;

/// <summary>
/// Counts open transactions so the map can be resized, or the environment closed, only when none is open
/// (LMDB's rule for <c>mdb_env_set_mapsize</c>). Not bound to threads: a read transaction may end on another
/// thread than it began on (the environment is opened with MDB_NOTLS).
/// </summary>
internal sealed class TransactionGate
{
    private readonly object _lock = new();
    private int _open;
    private bool _exclusive;

    public void Enter()
    {
        lock (_lock)
        {
            while (_exclusive)
                Monitor.Wait(_lock);
            _open++;
        }
    }

    public void Exit()
    {
        lock (_lock)
        {
            _open--;
            if (_open == 0)
                Monitor.PulseAll(_lock);
        }
    }

    /// <summary>Runs <paramref name="action"/> with no transaction open, holding new ones back meanwhile.</summary>
    /// <returns>False when transactions stayed open past <paramref name="timeout"/>; the action did not run.</returns>
    public bool RunExclusive(Action action, TimeSpan timeout)
    {
        lock (_lock)
        {
            while (_exclusive)
                Monitor.Wait(_lock);
            _exclusive = true;
            try
            {
                var deadline = DateTime.UtcNow + timeout;
                while (_open > 0)
                {
                    var left = deadline - DateTime.UtcNow;
                    if (left <= TimeSpan.Zero || !Monitor.Wait(_lock, left) && _open > 0)
                        return false;
                }
                action();
                return true;
            }
            finally
            {
                _exclusive = false;
                Monitor.PulseAll(_lock);
            }
        }
    }
}
