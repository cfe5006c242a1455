using RavenLite.Storage.Lmdb;

namespace RavenLite.Storage.Documents;

internal sealed partial class DocumentStore
{
    private const string CompactionFolderName = "lmdb.compacting";

    // For opening an existing file: LMDB adopts the file's own map size when it is larger.
    private const long SmallestMapSize = 1024 * 1024;

    /// <summary>
    /// Writes a consistent, compacted copy of the documents into <paramref name="destination"/> (a new or empty
    /// folder) while reads and writes go on: the copy holds exactly the writes committed before it began. The
    /// folder can be opened as a data directory. Indexes are not copied.
    /// </summary>
    /// <returns>Where the copy is, the last etag and the number of documents it holds, and its size.</returns>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is not a new or empty folder.</exception>
    /// <exception cref="NotSupportedException">The store does not run on LMDB.</exception>
    /// <exception cref="StorageFullException">The disk holding <paramref name="destination"/> filled up; what was
    /// copied is removed.</exception>
    public BackupResult Backup(string destination)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(destination);
        ThrowIfDisposed();
        if (Engine is not LmdbStorageEngine lmdb)
            throw new NotSupportedException($"Backup copies LMDB environments; this store runs on {Engine.Kind}.");
        var root = Path.GetFullPath(destination);
        if (Directory.Exists(root) && Directory.EnumerateFileSystemEntries(root).Any())
            throw new ArgumentException($"The backup folder '{root}' is not empty: back up into a new or empty folder.", nameof(destination));
        var folder = Path.Combine(root, StorageEngineFactory.EngineFolder(StorageEngineKind.Lmdb));
        Directory.CreateDirectory(folder);
        var copy = Path.Combine(folder, LmdbStorageEngine.DataFileName);
        try
        {
            lmdb.CopyTo(folder);
            FlushToDisk(copy);
            var counts = CountsOf(root);
            return new BackupResult(root, counts.LastEtag, counts.Documents, new FileInfo(copy).Length);
        }
        catch
        {
            Directory.Delete(folder, recursive: true); // what was copied must not pass for a backup
            File.Delete(Path.Combine(root, DataDirectoryLock.FileName));
            throw;
        }
    }

    /// <summary>
    /// Shrinks the LMDB data file of the closed database in <paramref name="dataDirectory"/> to the pages its data
    /// uses: writes a compacted copy beside it, then swaps it in (an atomic rename), so a crash at any point leaves
    /// either file whole. Every document, etag and count is kept.
    /// </summary>
    /// <returns>The data file's size before and after.</returns>
    /// <exception cref="ArgumentException">The folder holds no LMDB database.</exception>
    /// <exception cref="IOException">The database is open (in this process or another).</exception>
    /// <exception cref="StorageFullException">The disk has no room for the compacted copy; the database is unchanged.</exception>
    public static CompactionResult Compact(string dataDirectory)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(dataDirectory);
        var root = Path.GetFullPath(dataDirectory);
        var folder = Path.Combine(root, StorageEngineFactory.EngineFolder(StorageEngineKind.Lmdb));
        var dataFile = Path.Combine(folder, LmdbStorageEngine.DataFileName);
        if (!File.Exists(dataFile))
            throw new ArgumentException($"'{root}' holds no LMDB database to compact.", nameof(dataDirectory));
        using var directoryLock = DataDirectoryLock.Acquire(root);
        var before = new FileInfo(dataFile).Length;
        var scratch = Path.Combine(root, CompactionFolderName);
        if (Directory.Exists(scratch))
            Directory.Delete(scratch, recursive: true); // left by a compaction that crashed before its swap
        Directory.CreateDirectory(scratch);
        try
        {
            using (var engine = new LmdbStorageEngine(folder, SmallestMapSize))
                engine.CopyTo(scratch);
            var compacted = Path.Combine(scratch, LmdbStorageEngine.DataFileName);
            FlushToDisk(compacted);
            File.Move(compacted, dataFile, overwrite: true);
            // The reader table described the old file; LMDB rebuilds it on the next open.
            File.Delete(Path.Combine(folder, LmdbStorageEngine.LockFileName));
        }
        finally
        {
            Directory.Delete(scratch, recursive: true);
        }
        return new CompactionResult(before, new FileInfo(dataFile).Length);
    }

    /// <summary>Opens the copy in <paramref name="root"/> as a store to read its counts, then leaves no lock files behind.</summary>
    private static DocumentCounts CountsOf(string root)
    {
        DocumentCounts counts;
        using (var copy = Open(new StorageOptions { DataDirectory = root, CacheEnabled = false, MapSize = SmallestMapSize }))
            counts = copy.GetCounts();
        File.Delete(Path.Combine(root, DataDirectoryLock.FileName));
        File.Delete(Path.Combine(root, StorageEngineFactory.EngineFolder(StorageEngineKind.Lmdb), LmdbStorageEngine.LockFileName));
        return counts;
    }

    private static void FlushToDisk(string file)
    {
        using var stream = new FileStream(file, FileMode.Open, FileAccess.ReadWrite, FileShare.Read);
        stream.Flush(flushToDisk: true);
    }
}

/// <summary>What <see cref="DocumentStore.Backup"/> wrote.</summary>
/// <param name="Folder">The backup folder (full path); it opens as a data directory.</param>
/// <param name="LastEtag">The etag of the last write the copy holds: it holds every write up to it and none after.</param>
/// <param name="Documents">How many documents the copy holds.</param>
/// <param name="Bytes">The size of the copied data file.</param>
internal sealed record BackupResult(string Folder, long LastEtag, long Documents, long Bytes);

/// <summary>What <see cref="DocumentStore.Compact"/> did to the data file.</summary>
/// <param name="BytesBefore">The data file's size before.</param>
/// <param name="BytesAfter">Its size after.</param>
public sealed record CompactionResult(long BytesBefore, long BytesAfter);
