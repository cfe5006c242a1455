using Lucene.Net.Index;
using Lucene.Net.Store;
using Microsoft.Extensions.Time.Testing;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Persistence;
using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Indexer;

/// <summary>
/// Indexing reads its clock from <see cref="IndexingOptions.TimeProvider"/>: a fake clock moves commit intervals, wait
/// timeouts and error times without any test waiting for them.
/// </summary>
public sealed class IndexingClockTests : IDisposable
{
    private static readonly TimeSpan s_bound = TimeSpan.FromSeconds(30);
    private readonly FakeTimeProvider _clock = new(new DateTimeOffset(2026, 11, 26, 12, 0, 0, TimeSpan.Zero));
    private readonly TestIndexes _db;

    public IndexingClockTests() => _db = new TestIndexes(batchSize: 16, time: _clock, commitInterval: TimeSpan.FromMinutes(5));

    public void Dispose() => _db.Dispose();

    private long CommittedEtagOnDisk(string indexName)
    {
        using var directory = new NIOFSDirectory(new DirectoryInfo(Path.Combine(_db.IndexesDirectory, IndexName.ToFolderName(indexName))));
        var commit = new SegmentInfos();
        commit.Read(directory);
        return CommitData.FromUserData(commit.UserData, 0, out _)!.State.LastIndexedEtag;
    }

    private void PutCarts(int count) =>
        _db.Documents.Batch([.. Enumerable.Range(0, count).Select(i => BatchCommand.Put($"carts/{i}", SeedCart.Data, SeedCart.Metadata))]);

    [Fact]
    public void An_index_commits_once_its_commit_interval_has_passed_on_the_indexing_clock()
    {
        PutCarts(40);
        Assert.Equal(40, _db.Query(TestDefinitions.ByEntityName, "Tag:Item", pageSize: 0).TotalResults);
        Assert.Equal(0, CommittedEtagOnDisk(TestDefinitions.ByEntityName)); // indexed and searchable, not yet committed

        _clock.Advance(TimeSpan.FromMinutes(5));

        var lastEtag = _db.Documents.LastEtag;
        var deadline = DateTime.UtcNow + s_bound;
        while (CommittedEtagOnDisk(TestDefinitions.ByEntityName) < lastEtag)
        {
            Assert.True(DateTime.UtcNow < deadline, $"the index did not commit within {s_bound.TotalSeconds} s of its interval passing");
            Thread.Sleep(10);
        }
    }

    [Fact]
    public async Task A_waited_query_times_out_when_the_indexing_clock_passes_its_timeout()
    {
        using (_db.Indexes.PauseIndexing())
        {
            PutCarts(5);
            var wait = _db.Indexes.WaitForNonStaleAsync(TestDefinitions.ByEntityName, TimeSpan.FromMinutes(10));
            Assert.False(wait.IsCompleted); // the indexer is held back

            _clock.Advance(TimeSpan.FromMinutes(10));

            var ex = await Assert.ThrowsAsync<TimeoutException>(() => wait.WaitAsync(s_bound));
            Assert.Contains("5 etags behind", ex.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void A_waited_synchronous_query_times_out_when_the_indexing_clock_passes_its_timeout()
    {
        using (_db.Indexes.PauseIndexing())
        {
            PutCarts(5);
            var query = Task.Run(() => _db.Indexes.Query(TestDefinitions.ByEntityName,
                new IndexQuery { Query = "Tag:Item", WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(10) }));
            // The deadline is read when the wait begins: the clock moves only once the query is waiting.
            var deadline = DateTime.UtcNow + s_bound;
            while (_db.Indexes.WaitingQueries == 0)
            {
                Assert.True(DateTime.UtcNow < deadline, "the query never began waiting");
                Thread.Sleep(5);
            }
            Assert.False(query.IsCompleted);

            _clock.Advance(TimeSpan.FromMinutes(10));

            Assert.Throws<TimeoutException>(() => query.WaitAsync(s_bound).GetAwaiter().GetResult());
        }
    }

    [Fact]
    public void A_document_is_stamped_with_the_store_clock()
    {
        _clock.Advance(TimeSpan.FromHours(3));
        _db.Put("carts/1", """{"cartId": 1}""", "Item");

        Assert.Equal(new DateTimeOffset(2026, 11, 26, 15, 0, 0, TimeSpan.Zero), _db.Documents.Get("carts/1")!.LastModified);
    }
}
