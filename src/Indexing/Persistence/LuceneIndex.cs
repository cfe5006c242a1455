using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Store;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Persistence;

/// <summary>
/// One index's Lucene side in its folder: an explicit <see cref="NIOFSDirectory"/> (never <c>FSDirectory.Open</c>,
/// which picks the memory-mapped directory on 64-bit Linux, slow and crash-prone under concurrent search in
/// Lucene.Net 4.8) that keeps segments in memory until a commit (<see cref="CachedSegmentMB"/>), its one
/// <see cref="IndexWriter"/>, the <see cref="SearcherManager"/> queries acquire searchers from, and the per-segment
/// key/etag arrays queries read hits from.
/// </summary>
internal sealed partial class LuceneIndex : IDisposable
{
    private readonly NRTCachingDirectory _directory;
    private int _disposed;

    private LuceneIndex(NRTCachingDirectory directory, string folder, IndexWriter writer)
    {
        _directory = directory;
        Folder = folder;
        Writer = writer;
        Searchers = new SearcherManager(writer, applyAllDeletes: true, searcherFactory: null);
    }

    public IndexWriter Writer { get; }

    /// <summary>The folder the index's committed files are in.</summary>
    public string Folder { get; }

    public SearcherManager Searchers { get; }

    public SegmentKeysCache Segments { get; } = new();

    /// <summary>
    /// Opens the index in <paramref name="folder"/> as of its last commit (anything written after it, by a process
    /// that was killed, is discarded) and returns that commit's user data.
    /// </summary>
    /// <exception cref="Exception">The folder holds no readable Lucene index (Lucene's own IO and corruption errors).</exception>
    public static LuceneIndex Open(string folder, out IDictionary<string, string> userData)
    {
        var directory = Cached(folder);
        IndexWriter? writer = null;
        try
        {
            var commit = new SegmentInfos();
            commit.Read(directory);
            userData = commit.UserData;
            ReleaseStaleLock(directory);
            writer = new IndexWriter(directory, Config(OpenMode.APPEND));
            return new LuceneIndex(directory, folder, writer);
        }
        catch
        {
            writer?.Dispose();
            directory.Dispose();
            throw;
        }
    }

    /// <summary>Creates an empty index in <paramref name="folder"/> (throwing away whatever it held), committed with <paramref name="data"/>.</summary>
    public static LuceneIndex Create(string folder, CommitData data)
    {
        if (System.IO.Directory.Exists(folder))
            System.IO.Directory.Delete(folder, recursive: true);
        System.IO.Directory.CreateDirectory(folder);
        var directory = Cached(folder);
        IndexWriter? writer = null;
        try
        {
            writer = new IndexWriter(directory, Config(OpenMode.CREATE));
            writer.SetCommitData(data.ToUserData());
            writer.Commit();
            return new LuceneIndex(directory, folder, writer);
        }
        catch
        {
            writer?.Dispose();
            directory.Dispose();
            throw;
        }
    }

    /// <summary>Whether <paramref name="folder"/> has a Lucene commit (a <c>segments_N</c> file).</summary>
    public static bool HasCommit(string folder)
    {
        using var directory = new NIOFSDirectory(new DirectoryInfo(folder));
        return DirectoryReader.IndexExists(directory);
    }

    /// <summary>
    /// The database's own folder lock guarantees that no other writer can be at work on this folder, so a
    /// <c>write.lock</c> still held here is a leftover (of a writer that was never closed); it is released.
    /// </summary>
    private static void ReleaseStaleLock(Lucene.Net.Store.Directory directory)
    {
        if (IndexWriter.IsLocked(directory))
            IndexWriter.Unlock(directory);
    }

    /// <summary>
    /// A segment a refresh flushes (or a merge writes) of up to this many MB by Lucene's estimate is written to memory,
    /// and to the folder only by the commit that includes it: a refresh cuts a new segment of about ten files, and
    /// creating files costs the filesystem more than writing them (ext4 checks each new inode against recently
    /// deleted ones), while most of these segments are merged away before any commit.
    /// </summary>
    internal const double CachedSegmentMB = 8;

    /// <summary>How much of an index's not yet committed segments stays in memory at most; further ones go to the folder.</summary>
    internal const double CachedMB = 32;

    /// <summary>
    /// The index folder, with the segments not yet committed kept in memory (<see cref="CachedSegmentMB"/>): a commit
    /// syncs its files, which writes them to the folder first, so what a commit holds is on disk as before, and a
    /// crash loses only what no commit held, as before.
    /// </summary>
    private static NRTCachingDirectory Cached(string folder) =>
        new(new NIOFSDirectory(new DirectoryInfo(folder)), CachedSegmentMB, CachedMB);

    private static IndexWriterConfig Config(OpenMode mode) => new(LuceneSettings.Version, FullTextAnalyzer.Instance)
    {
        OpenMode = mode,
        // Merges only ever join adjacent segments, so doc id order stays the order documents were indexed in
        // (etag order): unsorted results come in that order, and a continuation can seek by etag.
        MergePolicy = new LogByteSizeMergePolicy(),
        MergeScheduler = new CommitMergeScheduler(),
        // A backup pins the last commit's files (Snapshot) while it copies them; otherwise only the last commit is kept.
        IndexDeletionPolicy = new SnapshotDeletionPolicy(new KeepOnlyLastCommitDeletionPolicy()),
    };

    /// <summary>
    /// Makes searchers acquired from now on see everything the writer holds, committed or not (a near-real-time
    /// reader: Lucene flushes new segments without syncing them).
    /// </summary>
    public void Refresh() => Searchers.MaybeRefreshBlocking();

    /// <summary>
    /// Runs the merges due when <paramref name="merge"/>, then commits (durably) what the writer holds with
    /// <paramref name="data"/> as the commit's user data.
    /// </summary>
    public void Commit(CommitData data, bool merge = true)
    {
        if (merge)
            Writer.MaybeMerge(); // the one place merges run while the index is open (CommitMergeScheduler)
        Writer.SetCommitData(data.ToUserData());
        Writer.Commit();
    }

    /// <summary>Throws every document away and commits <paramref name="data"/> with the empty index, in one commit.</summary>
    public void Clear(CommitData data)
    {
        Writer.DeleteAll();
        Commit(data);
        Refresh();
    }

    /// <summary>How many live documents the current searcher sees (Lucene keeps the count; nothing is scanned).</summary>
    public long DocumentCount()
    {
        var searcher = Searchers.Acquire();
        try
        {
            return searcher.IndexReader.NumDocs;
        }
        finally
        {
            Searchers.Release(searcher);
        }
    }

    /// <summary>Throws away everything written since the last commit, and closes the writer.</summary>
    public void Rollback() => Writer.Rollback();

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        var failures = new CloseFailures();
        failures.Try(Searchers.Dispose);
        // Without waiting for merges: the owner committed just before, and merges wait for the next commit.
        failures.Try(() => Writer.Dispose(waitForMerges: false));
        failures.Try(DropUncommitted);
        failures.Try(_directory.Dispose);
        failures.ThrowIfAny("Closing the Lucene index failed.");
    }

    /// <summary>
    /// Deletes what memory still holds once the writer is closed: no commit holds any of it (a commit writes its files
    /// out), and the directory's own close would write it to the folder, only for the next open to delete it (a rolled
    /// back writer leaves the segments a searcher still had open).
    /// </summary>
    private void DropUncommitted()
    {
        foreach (var name in _directory.ListCachedFiles())
            _directory.DeleteFile(name);
    }
}
