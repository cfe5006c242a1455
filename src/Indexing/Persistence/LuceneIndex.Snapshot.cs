using Lucene.Net.Index;

namespace RavenLite.Indexing.Persistence;

internal sealed partial class LuceneIndex
{
    /// <summary>
    /// Pins the last commit: its files stay on disk, unchanged, until the snapshot is disposed, while the writer goes
    /// on committing. Throws when the writer is closed.
    /// </summary>
    public LuceneSnapshot Snapshot()
    {
        var policy = (SnapshotDeletionPolicy)Writer.Config.IndexDeletionPolicy;
        var commit = policy.Snapshot();
        return new LuceneSnapshot(Writer, policy, commit, Folder);
    }
}

/// <summary>One pinned Lucene commit: its files, where they are, and the etag its commit data reached.</summary>
internal sealed class LuceneSnapshot : IDisposable
{
    private readonly IndexWriter _writer;
    private readonly SnapshotDeletionPolicy _policy;
    private readonly IndexCommit _commit;
    private int _disposed;

    public LuceneSnapshot(IndexWriter writer, SnapshotDeletionPolicy policy, IndexCommit commit, string folder)
    {
        _writer = writer;
        _policy = policy;
        _commit = commit;
        Folder = folder;
        LastIndexedEtag = CommitData.FromUserData(commit.UserData, 0, out _)?.State.LastIndexedEtag ?? 0;
    }

    public string Folder { get; }

    /// <summary>The etag up to which the pinned commit has indexed every document.</summary>
    public long LastIndexedEtag { get; }

    /// <summary>Copies the commit's files into <paramref name="destination"/> (created when missing); returns the bytes copied.</summary>
    public long CopyTo(string destination)
    {
        Directory.CreateDirectory(destination);
        long bytes = 0;
        foreach (var name in _commit.FileNames)
        {
            var target = Path.Combine(destination, name);
            File.Copy(Path.Combine(Folder, name), target);
            bytes += new FileInfo(target).Length;
        }
        return bytes;
    }

    /// <summary>Unpins the commit; its files go once the writer no longer needs them.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        try
        {
            _policy.Release(_commit);
            _writer.DeleteUnusedFiles();
        }
        catch (ObjectDisposedException)
        {
            // The index was closed meanwhile: the next writer on the folder removes what no commit needs.
        }
    }
}
