using System.Runtime.ExceptionServices;

namespace RavenLite.Storage.Documents;

/// <summary>
/// Group commit: writes that arrive while another write is committing wait, then commit together in the next write
/// transaction, so concurrent writers share its syncs. Each caller returns (is acknowledged) only after the commit
/// holding its writes has returned, and each keeps its own results and errors: a write that fails (a stale etag, a
/// refused patch) is taken out and the rest of its group committed without it.
/// </summary>
internal sealed partial class DocumentStore
{
    private readonly object _groupGate = new();
    private List<PendingWrite> _queued = [];
    private bool _committing;

    // The thread committing a group, while it does: a write it makes from a change listener commits on its own
    // rather than waiting for the group it is still leading.
    [ThreadStatic]
    private static DocumentStore? t_leading;

    /// <summary>Whether concurrent writes are committed in groups (the default); off only to measure the difference.</summary>
    internal bool GroupCommit { get; set; } = true;

    /// <summary>How many writes wait for the commit under way.</summary>
    internal int QueuedWrites
    {
        get
        {
            lock (_groupGate)
                return _queued.Count;
        }
    }

    private BatchResult[] Commit(PreparedCommand[] prepared, bool single, CommitMode mode)
    {
        if (!GroupCommit || t_leading == this)
            return CommitAlone(prepared, single, mode);
        var write = new PendingWrite(prepared, single, mode);
        List<PendingWrite>? group;
        lock (_groupGate)
        {
            if (!_committing)
            {
                _committing = true;
                group = [write];
            }
            else
            {
                _queued.Add(write);
                while (!write.Done && write.Group is null)
                    Monitor.Wait(_groupGate);
                group = write.Group;
            }
        }
        if (group is not null)
            Lead(group);
        write.Error?.Throw();
        return write.Results!;
    }

    private BatchResult[] CommitAlone(PreparedCommand[] prepared, bool single, CommitMode mode)
    {
        var now = _time.GetUtcNow();
        BatchWriter? writer = null;
        // The engine may run the work again (LMDB grows its map and retries): the last writer is the committed one.
        var results = Engine.Write(tx => (writer = new BatchWriter(this, tx, now, single)).Run(prepared), mode);
        ForgetReplaced(writer!.Replaced);
        PublishCommit(results);
        return results;
    }

    /// <summary>Commits <paramref name="group"/>, then hands the writes queued meanwhile to the first of them.</summary>
    private void Lead(List<PendingWrite> group)
    {
        t_leading = this;
        try
        {
            CommitGroup(group);
        }
        finally
        {
            t_leading = null;
            lock (_groupGate)
            {
                foreach (var write in group)
                    write.Done = true;
                if (_queued.Count > 0)
                {
                    var next = _queued;
                    _queued = [];
                    next[0].Group = next;
                }
                else
                {
                    _committing = false;
                }
                Monitor.PulseAll(_groupGate);
            }
        }
    }

    /// <summary>Sets each write's results or error; a write whose own commands fail is left out and the rest retried.</summary>
    private void CommitGroup(List<PendingWrite> group)
    {
        var pending = new List<PendingWrite>(group);
        while (pending.Count > 0)
        {
            PendingWrite? failing = null;
            try
            {
                var now = _time.GetUtcNow();
                Engine.Write(tx =>
                {
                    // The engine may run this again (LMDB grows its map and retries): each run starts over.
                    foreach (var write in pending)
                    {
                        failing = write;
                        write.Writer = new BatchWriter(this, tx, now, write.Single);
                        write.Results = write.Writer.Run(write.Prepared);
                    }
                    failing = null;
                    return 0;
                }, Strongest(pending));
            }
#pragma warning disable CA1031 // every exception goes back to the caller whose write it belongs to
            catch (Exception ex)
#pragma warning restore CA1031
            {
                var error = ExceptionDispatchInfo.Capture(ex);
                if (failing is { } own)
                {
                    own.Error = error;
                    pending.Remove(own);
                    continue;
                }
                foreach (var write in pending)
                    write.Error = error;
                return;
            }
            foreach (var write in pending)
            {
                ForgetReplaced(write.Writer!.Replaced);
                PublishCommit(write.Results!);
            }
            return;
        }
    }

    /// <summary>A group commits as its most careful member asks: durable over pipelined over lazy.</summary>
    private static CommitMode Strongest(List<PendingWrite> writes)
    {
        var strongest = CommitMode.Lazy;
        foreach (var write in writes)
        {
            if (write.Mode == CommitMode.Durable)
                return CommitMode.Durable;
            if (write.Mode == CommitMode.Pipelined)
                strongest = CommitMode.Pipelined;
        }
        return strongest;
    }

    /// <summary>One caller's write, waiting to be committed (by itself or by the leader of its group).</summary>
    private sealed class PendingWrite(PreparedCommand[] prepared, bool single, CommitMode mode)
    {
        public PreparedCommand[] Prepared { get; } = prepared;

        public bool Single { get; } = single;

        public CommitMode Mode { get; } = mode;

        public BatchWriter? Writer { get; set; }

        public BatchResult[]? Results { get; set; }

        public ExceptionDispatchInfo? Error { get; set; }

        /// <summary>Set under the gate when this write is to lead the group it heads.</summary>
        public List<PendingWrite>? Group { get; set; }

        /// <summary>Set under the gate once the commit holding this write has returned or failed.</summary>
        public bool Done { get; set; }
    }
}
