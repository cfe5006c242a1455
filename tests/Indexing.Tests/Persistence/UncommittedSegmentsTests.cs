using Lucene.Net.Index;
using Lucene.Net.Store;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Persistence;

/// <summary>
/// The segments refreshes flush stay in memory until a commit holds them: the commit writes and syncs them to the
/// index folder, so what a commit holds is on disk, and what no commit holds never reaches it.
/// </summary>
public sealed class UncommittedSegmentsTests : IDisposable
{
    private readonly TestIndexes _db = new(batchSize: 1, neverCommitWhileOpen: true, refreshInterval: TimeSpan.Zero);

    public void Dispose() => _db.Dispose();

    private string Folder => Path.Combine(_db.IndexesDirectory, IndexName.ToFolderName(TestDefinitions.ByEntityName));

    /// <summary>The index files in the folder (the writer's lock aside).</summary>
    private string[] Files() =>
        [.. System.IO.Directory.GetFiles(Folder).Select(f => Path.GetFileName(f)).Where(f => f != "write.lock").Order(StringComparer.Ordinal)];

    /// <summary>Puts things one by one, each seen by a query (so each refresh flushes a segment of its own).</summary>
    private void PutThings(int count)
    {
        for (var i = 0; i < count; i++)
        {
            _db.Put($"things/{i}", $$"""{"n": {{i}}}""", "Thing");
            Assert.Equal(i + 1, _db.Query(TestDefinitions.ByEntityName, "Tag:Thing", pageSize: 0).TotalResults);
        }
    }

    /// <summary>Counts the documents of the folder's last commit, read from disk by a reader of its own.</summary>
    private int CommittedDocuments()
    {
        using var directory = new NIOFSDirectory(new DirectoryInfo(Folder));
        using var reader = DirectoryReader.Open(directory);
        return reader.NumDocs;
    }

    [Fact]
    public void Refreshed_segments_reach_the_index_folder_only_with_the_commit_that_holds_them()
    {
        var before = Files();

        PutThings(5);
        var refreshed = Files();
        using (_db.Indexes.BeginBackup()) // commits what is indexed
        {
        }

        Assert.Equal(before, refreshed);
        Assert.NotEqual(before, Files());
        Assert.Equal(5, CommittedDocuments());
    }

    [Fact]
    public void What_the_close_commits_is_on_disk_for_the_next_open_and_not_indexed_again()
    {
        PutThings(5);

        _db.Close();
        var committed = CommittedDocuments();
        _db.Open();

        Assert.Equal(5, committed);
        Assert.Equal(5, _db.Query(TestDefinitions.ByEntityName, "Tag:Thing", pageSize: 0).TotalResults);
        Assert.Equal(0, _db.Indexes.GetStatistics(TestDefinitions.ByEntityName).DocumentsIndexedSinceOpen);
    }

    [Fact]
    public void A_crash_leaves_the_uncommitted_segments_out_of_the_folder_and_the_index_catches_up_again()
    {
        var before = Files();
        PutThings(5);

        _db.Crash();
        var after = Files();
        _db.Open();

        Assert.Equal(before, after);
        Assert.Equal(5, _db.Query(TestDefinitions.ByEntityName, "Tag:Thing", pageSize: 0).TotalResults);
        Assert.Equal(5, _db.Indexes.GetStatistics(TestDefinitions.ByEntityName).DocumentsIndexedSinceOpen);
    }
}
