using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Querying;

/// <summary>Queries keep answering while the indexer commits batches and the index is reset and redefined under them.</summary>
public sealed class ConcurrentQueryTests : IDisposable
{
    private readonly TestIndexes _db = new(batchSize: 50);

    public void Dispose() => _db.Dispose();

    [Fact]
    public async Task Queries_during_indexing_resets_and_redefinitions_never_fail()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple("Numbers", path: "n", sort: "Long"));
        var failures = new System.Collections.Concurrent.ConcurrentQueue<Exception>();
        using var stop = new CancellationTokenSource();
        var readers = Enumerable.Range(0, 2).Select(_ => Task.Run(() =>
        {
            while (!stop.IsCancellationRequested)
            {
                try
                {
                    var page = _db.Indexes.Query("Numbers", new IndexQuery { Query = "Value:[0 TO *]", PageSize = 20, SortBy = ["-Value"] });
                    Assert.True(page.Results.Count <= 20);
                    _db.Indexes.Query(TestDefinitions.ByEntityName, new IndexQuery { Query = "Tag:Thing", PageSize = 20 });
                }
                catch (Exception ex)
                {
                    failures.Enqueue(ex);
                }
            }
        })).ToList();

        for (var round = 0; round < 6; round++)
        {
            _db.Documents.Batch([.. Enumerable.Range(round * 200, 200).Select(i => BatchCommand.Put($"things/{i}",
                DocumentContent.FromJson($$"""{"n": {{i}}}"""), DocumentContent.FromJson("""{"Raven-Entity-Name":"Thing"}""")))]);
            if (round % 2 == 0)
                _db.Indexes.ResetIndex("Numbers");
            else
                _db.Indexes.PutIndex(TestDefinitions.Simple("Numbers", path: "n", sort: round % 4 == 1 ? "Double" : "Long"));
        }
        stop.Cancel();
        await Task.WhenAll(readers);

        Assert.Empty(failures);
        Assert.Equal(1200, _db.Query("Numbers", "Value:[0 TO *]").TotalResults);
        Assert.Equal(1200, _db.Query(TestDefinitions.ByEntityName, "Tag:Thing").TotalResults);
    }
}
