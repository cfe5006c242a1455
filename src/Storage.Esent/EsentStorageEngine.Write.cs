using RavenLite.Storage.Esent.Native;

namespace RavenLite.Storage.Esent;

internal sealed partial class EsentStorageEngine
{
    public T Write<T>(Func<IWriteTransaction, T> work, CommitMode mode = CommitMode.Durable)
    {
        ArgumentNullException.ThrowIfNull(work);
        lock (_writeLock)
        {
            ThrowIfDisposed();
            if (_writing)
                throw new InvalidOperationException(
                    "Write was called from inside a write transaction's work; there is one write transaction at a time.");
            _writing = true;
            try
            {
                var session = _writeSession ??= EsentSession.Begin(_instance, _databasePath, readOnly: false);
                session.BeginTransaction(0);
                var tx = new EsentWriteTransaction(this, session);
                T result;
                try
                {
                    result = work(tx);
                    tx.Commit(mode);
                }
                catch
                {
                    Abort(tx);
                    throw;
                }
                return result;
            }
            finally
            {
                _writing = false;
            }
        }
    }

    /// <summary>Rolls the write transaction back; a session that cannot roll back is ended and replaced.</summary>
    private void Abort(EsentWriteTransaction tx)
    {
        if (tx.Abort() >= 0)
            return;
        _ = tx.Session.End(bindToThread: false);
        _writeSession = null;
    }

    /// <summary>Flushes lazy commits (<see cref="CommitMode.Lazy"/>) to the log on disk.</summary>
    public void Flush()
    {
        lock (_writeLock)
        {
            ThrowIfDisposed();
            var session = _writeSession ??= EsentSession.Begin(_instance, _databasePath, readOnly: false);
            // Outside a transaction, this waits for every commit so far to reach the log file.
            EsentErrors.Check(EsentNative.JetCommitTransaction(session.Sesid, JetBit.WaitAllLevel0Commit),
                "Flushing the ESENT log");
        }
    }

    /// <summary>
    /// Ends every session, detaches the database and terminates the instance (a clean shutdown: the next
    /// open needs no recovery). Every step runs even when one fails; the first failure is thrown at the end.
    /// </summary>
    public void Dispose()
    {
        lock (_writeLock)
        {
            if (_writing)
                throw new InvalidOperationException("The engine cannot be disposed from inside a write transaction's work.");
            lock (_tablesLock)
            {
                EsentSession[] readSessions;
                lock (_sessionsLock)
                {
                    if (Interlocked.Exchange(ref _disposed, 1) != 0)
                        return;
                    readSessions = [.. _readSessions];
                    _readSessions.Clear();
                }
                var errors = new List<Exception>();
                foreach (var session in readSessions)
                {
                    // Waits for a call in progress on another thread; the transaction on it ends with it.
                    lock (session.Sync)
                        Record(errors, session.End(bindToThread: true), "Ending a read session");
                }
                _idleSessions.Clear();
                if (_writeSession is { } writer)
                    Record(errors, writer.End(bindToThread: false), "Ending the write session");
                _writeSession = null;
                if (_ddlSession is { } ddl)
                {
                    Record(errors, EsentNative.JetCloseDatabase(ddl.Sesid, ddl.Dbid, 0), "Closing the database");
                    Record(errors, EsentNative.JetDetachDatabase(ddl.Sesid, _databasePath), "Detaching the database");
                    Record(errors, ddl.End(bindToThread: false), "Ending the engine's session");
                }
                _ddlSession = null;
                Record(errors, Terminate(_instance), "Shutting ESENT down");
                _instance = 0;
                if (errors.Count > 0)
                    throw errors[0];
            }
        }
    }

    private static void Record(List<Exception> errors, int code, string operation)
    {
        if (code < 0)
            errors.Add(EsentErrors.ToException(code, operation));
    }

    /// <summary>JetTerm2 with a clean shutdown; should that fail, an abrupt one so the instance is released.</summary>
    private static int Terminate(nint instance)
    {
        if (instance == 0)
            return JetErr.Success;
        var code = EsentNative.JetTerm2(instance, JetBit.TermComplete);
        if (code < 0 && code is not (JetErr.InvalidInstance or JetErr.NotInitialized))
            _ = EsentNative.JetTerm2(instance, JetBit.TermAbrupt);
        return code;
    }
}
