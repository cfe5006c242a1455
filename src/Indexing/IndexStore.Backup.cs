using RavenLite.Indexing.Persistence;

namespace RavenLite.Indexing;

internal sealed partial class IndexStore
{
    /// <summary>
    /// Pins every index's last Lucene commit and keeps every tombstone until the result is disposed: copy the documents
    /// after this call, then the indexes with <see cref="IndexesBackup.CopyTo"/>. Each index in the copy has indexed
    /// up to an etag no later than the documents', and the copy holds the deletions after it, so a restored index
    /// catches up from there instead of being rebuilt.
    /// </summary>
    public IndexesBackup BeginBackup()
    {
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        var hold = _indexer.HoldPurges();
        var snapshots = new List<LuceneSnapshot>();
        try
        {
            lock (_definitionsLock)
            {
                foreach (var index in Volatile.Read(ref _indexes).Values)
                {
                    lock (index.WriteLock)
                    {
                        index.CommitNow();
                        snapshots.Add(index.Lucene.Snapshot());
                    }
                }
            }
            return new IndexesBackup(snapshots, hold);
        }
        catch
        {
            snapshots.ForEach(s => s.Dispose());
            hold.Dispose();
            throw;
        }
    }
}

/// <summary>The indexes' pinned commits for a backup (<see cref="IndexStore.BeginBackup"/>); dispose it to unpin them.</summary>
internal sealed class IndexesBackup : IDisposable
{
    private readonly IReadOnlyList<LuceneSnapshot> _snapshots;
    private readonly IDisposable _purgeHold;
    private int _disposed;

    internal IndexesBackup(IReadOnlyList<LuceneSnapshot> snapshots, IDisposable purgeHold)
    {
        _snapshots = snapshots;
        _purgeHold = purgeHold;
    }

    /// <summary>The lowest etag the pinned commits have indexed up to.</summary>
    public long LastIndexedEtag => _snapshots.Count == 0 ? 0 : _snapshots.Min(s => s.LastIndexedEtag);

    /// <summary>
    /// Copies each pinned commit's files into <c>Indexes/&lt;index folder&gt;</c> under <paramref name="dataDirectory"/>
    /// (a backup laid out as a data directory).
    /// </summary>
    /// <returns>The bytes copied.</returns>
    public long CopyTo(string dataDirectory)
    {
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        var indexes = new IndexingOptions { DataDirectory = dataDirectory }.IndexesDirectory;
        return _snapshots.Sum(s => s.CopyTo(Path.Combine(indexes, Path.GetFileName(s.Folder))));
    }

    /// <summary>Unpins the commits and lets tombstones be purged again.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        var failures = new CloseFailures();
        foreach (var snapshot in _snapshots)
            failures.Try(snapshot.Dispose);
        failures.Try(_purgeHold.Dispose);
        failures.ThrowIfAny("Releasing the backup's index snapshots failed.");
    }
}
