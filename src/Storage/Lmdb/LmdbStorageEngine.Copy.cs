using RavenLite.Storage.Lmdb.Native;

namespace RavenLite.Storage.Lmdb;

internal sealed partial class LmdbStorageEngine
{
    /// <summary>
    /// Writes a compacted copy of the environment to <c>data.mdb</c> in <paramref name="folder"/> (which must not
    /// hold one), from one read snapshot (<c>mdb_env_copy2</c> with <c>MDB_CP_COMPACT</c>): reads and writes go on
    /// meanwhile, and the copy holds exactly the transactions committed before it began. Free pages are left out.
    /// </summary>
    /// <remarks>
    /// The copy counts as an open transaction for <see cref="Gate"/>: LMDB's own read transaction must not see the
    /// map resized, so a write that needs the map to grow waits for the copy (and fails after the gate's timeout).
    /// To make that unlikely, a map more than half used is grown before the copy begins.
    /// </remarks>
    /// <exception cref="StorageFullException">The disk holding <paramref name="folder"/> filled up; the partial
    /// file is removed.</exception>
    public void CopyTo(string folder)
    {
        var copy = Path.Combine(folder, DataFileName);
        if (File.Exists(copy))
            throw new IOException($"'{copy}' already exists; a copy is written only where there is none.");
        ThrowIfDisposed();
        GrowWhenMoreThanHalfUsed();
        Gate.Enter();
        try
        {
            ThrowIfDisposed();
            var code = LmdbNative.EnvCopy2(_env, folder, MdbConstants.CopyCompact);
            if (code == MdbConstants.Success)
                return;
            var failure = LmdbErrors.ToException(code, $"Copying the database to '{folder}'");
            if (failure is LmdbInputOutputException && DiskSpace.IsFull(folder))
                failure = DiskSpace.Full(folder, failure);
            File.Delete(copy); // a partial copy must not pass for a backup
            throw failure;
        }
        finally
        {
            Gate.Exit();
        }
    }

    private void GrowWhenMoreThanHalfUsed()
    {
        lock (_writeLock)
        {
            ThrowIfDisposed();
            LmdbErrors.Check(LmdbNative.EnvInfo(_env, out var info), "Reading the environment info");
            var used = ((long)info.LastPageNumber + 1) * Environment.SystemPageSize;
            if (used <= MapSize / 2 || MapSize >= _maxMapSize)
                return;
            try
            {
                Grow();
            }
            catch (IOException)
            {
                // Headroom only spares writers a wait; the copy is just as correct without it.
            }
        }
    }
}
