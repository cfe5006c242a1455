using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.MapReduce;

public sealed class MapReduceDifferentialTests : IDisposable
{
    private readonly TestIndexes _db = new(batchSize: 50);

    public void Dispose() => _db.Dispose();

    private List<System.Text.Json.JsonElement> Results() =>
        [.. _db.Query("Orders/TotalsByCustomer", "*:*", pageSize: 1024).Results.Select(r => r.Data)];

    [Theory]
    [InlineData(1)]
    [InlineData(31)]
    public void After_thousands_of_random_puts_moves_and_deletes_every_group_equals_LINQ(int seed)
    {
        _db.Indexes.PutIndex(MapReduceTests.TotalsByCustomer);
        var oracle = new OrderOracle(seed);
        for (var round = 0; round < 4; round++)
        {
            for (var write = 0; write < 60; write++)
            {
                // Up to 20 changes per transaction, a key at most once, so the indexer sees many changes per batch.
                var commands = new Dictionary<string, BatchCommand>(StringComparer.Ordinal);
                for (var i = 0; i < 20; i++)
                {
                    var (key, order) = oracle.Next();
                    commands[key] = order is null
                        ? BatchCommand.Delete(key)
                        : BatchCommand.Put(key, DocumentContent.FromJson(order.Json()), DocumentContent.FromJson("""{"Raven-Entity-Name":"Order"}"""));
                }
                _db.Documents.Batch([.. commands.Values]);
            }
            oracle.AssertMatches(Results());
            // Halfway, the index is opened again: no group state is kept and no key is known new any more, so the
            // second half reads every state and every document's entries from the index.
            if (round == 1)
                _db.Reopen();
        }
        Assert.True(oracle.Orders.Count > 100);
        Assert.True(_db.Indexes.GetStatistics("Orders/TotalsByCustomer").ErrorCount > 0);
    }
}
