using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Issues;

/// <summary>
/// Found while moving indexes to delete replaced versions by etag: an index added (or rebuilt) after tombstones were
/// purged past its first batch never got further. The indexer took "progress below the purge point" as "missed a
/// delete" and rebuilt it, at every round, though an index that began from nothing after the purge needs nothing
/// purged before it. With replacement records, whose purges move the same point, any overwrite would have done it.
/// </summary>
public sealed class IndexAddedAfterPurgeTests : IDisposable
{
    private readonly TestIndexes _db = new(batchSize: 100);

    public void Dispose() => _db.Dispose();

    [Fact]
    public void An_index_added_after_deletes_and_overwrites_were_purged_builds_from_the_documents()
    {
        for (var pass = 0; pass < 2; pass++)
        {
            _db.Documents.Batch([.. Enumerable.Range(0, 300).Select(i =>
                BatchCommand.Put($"users/{i}", DocumentContent.FromJson($$"""{"n":{{i}}}"""), DocumentContent.FromJson("""{"Raven-Entity-Name":"User"}""")))]);
        }
        _db.Documents.Delete("users/3");
        Assert.Equal(299, _db.Query(TestDefinitions.ByEntityName, "Tag:User").TotalResults);
        Assert.True(SpinWait.SpinUntil(() => _db.Documents.GetReplacementsAfterEtag(0, long.MaxValue, 10).Count == 0
            && _db.Documents.GetTombstonesAfterEtag(0, 10).Count == 0, TimeSpan.FromSeconds(10)), "the records are purged");

        _db.Indexes.PutIndex(TestDefinitions.Simple("Numbers", path: "n", sort: "Long"));

        Assert.Equal(299, _db.Query("Numbers", "Value:[0 TO *]").TotalResults);
        Assert.DoesNotContain(_db.LogLines, line => line.Contains("rebuilding", StringComparison.Ordinal));
    }
}
