using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Querying;

/// <summary>
/// Prefix and range queries over 100,000 documents: constant-score rewrites keep what a query holds to a bit set per
/// segment, whatever the number of matching terms; a continuation walk stays exact across a forced merge.
/// </summary>
public sealed class LargeIndexQueryTests : IClassFixture<LargeIndexQueryTests.HundredThousand>
{
    private const int Count = 100_000;
    private readonly HundredThousand _fixture;

    public LargeIndexQueryTests(HundredThousand fixture) => _fixture = fixture;

    public sealed class HundredThousand : IDisposable
    {
        public HundredThousand()
        {
            Db.Indexes.PutIndex(IndexDefinition.FromJson("""
                {"Name": "Numbers", "Fields": [{"Name": "Name", "Path": "name"}, {"Name": "N", "Path": "n", "Sort": "Long"}]}
                """));
            var metadata = DocumentContent.FromJson("""{"Raven-Entity-Name":"Number"}""");
            for (var start = 0; start < Count; start += 10_000)
            {
                Db.Documents.Batch([.. Enumerable.Range(start, 10_000).Select(i =>
                    BatchCommand.Put($"numbers/{i}", DocumentContent.FromJson($$"""{"name": "name{{i:D6}}", "n": {{i}}}"""), metadata))]);
            }
            Db.Query("Numbers", "*:*", pageSize: 10); // caught up, and the first segments' key arrays loaded
        }

        internal TestIndexes Db { get; } = new(batchSize: 4096);

        public void Dispose() => Db.Dispose();
    }

    [Theory]
    [InlineData("Name:name00*", 10_000)]
    [InlineData("Name:name*", Count)]
    [InlineData("N:[1000 TO 90999]", 90_000)]
    [InlineData("N:{* TO 50000}", 50_000)]
    [InlineData("Name:[name000000 TO name099999]", Count)]
    public void Prefix_and_range_queries_over_100000_documents_stay_within_bounded_memory(string query, int expected)
    {
        var before = GC.GetAllocatedBytesForCurrentThread();

        var result = _fixture.Db.Query("Numbers", query, pageSize: 10);

        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(expected, result.TotalResults);
        Assert.Equal(10, result.Results.Count);
        // The query's first run (parsed, then its per-segment doc id sets built): a bit per document per segment and
        // the terms' enumeration, not an entry per matching term or document; a clause per term would be far more.
        Assert.True(allocated < 2_000_000, $"the query allocated {allocated:N0} bytes");
    }

    [Fact]
    public void A_continuation_walk_across_a_forced_merge_returns_every_document_exactly_once()
    {
        foreach (var sortBy in new[] { Array.Empty<string>(), ["-N"] })
        {
            var seen = new List<string>();
            string? continuation = null;
            var pages = 0;
            do
            {
                var page = _fixture.Db.Query("Numbers", "N:[0 TO 29999]", pageSize: 1000, sortBy: sortBy, continuation: continuation);
                seen.AddRange(page.Results.Select(d => d.Key));
                continuation = page.Continuation;
                if (++pages == 5)
                    _fixture.Db.Indexes.ForceMerge("Numbers"); // doc ids change under the walk
            }
            while (continuation is not null);

            Assert.Equal(30_000, seen.Count);
            Assert.Equal(30_000, seen.Distinct().Count());
            if (sortBy.Length > 0)
                Assert.Equal(Enumerable.Range(0, 30_000).Reverse().Select(i => $"numbers/{i}"), seen);
        }
    }

    [Fact]
    public void Deep_pages_by_start_and_by_continuation_agree()
    {
        var byStart = _fixture.Db.Query("Numbers", "*:*", pageSize: 100, start: 77_700);
        string? continuation = null;
        QueryResult page;
        var walked = 0;
        do
        {
            page = _fixture.Db.Query("Numbers", "*:*", pageSize: 100, continuation: continuation);
            continuation = page.Continuation;
            walked += 100;
        }
        while (walked <= 77_700);

        Assert.Equal(TestIndexes.Keys(byStart), TestIndexes.Keys(page));
        Assert.Equal(Count, page.TotalResults);
    }
}
