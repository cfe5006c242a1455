using RavenLite.Indexing;
using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>Every window and every continuation walk over a 5,000-document result covers each document exactly once, in order.</summary>
public sealed class PagingTests : IClassFixture<PagingTests.FiveThousand>
{
    private const int Count = 5000;
    private readonly FiveThousand _fixture;

    public PagingTests(FiveThousand fixture) => _fixture = fixture;

    public sealed class FiveThousand : IDisposable
    {
        public FiveThousand()
        {
            Database.Db.PutIndex(IndexDefinition.FromJson("""
                {"Name": "Things", "EntityName": "Thing",
                 "Fields": [{"Name": "N", "Path": "n", "Sort": "Long"}, {"Name": "Group", "Path": "group", "Sort": "Long"},
                            {"Name": "Label", "Path": "label", "Sort": "String"}]}
                """));
            // Shuffled, so index order, n order and label order all differ.
            var order = Enumerable.Range(0, Count).OrderBy(i => (i * 7919) % Count).ToList();
            Database.Db.Batch(order.Select(i => BatchCommand.Put($"things/{i}",
                IndexingDatabase.Json($$"""{"n": {{i}}, "group": {{i % 7}}, "label": "L{{(i * 31) % 997:D4}}"}"""),
                IndexingDatabase.Entity("Thing"))).ToList());
            IndexOrder = [.. order.Select(i => $"things/{i}")];
        }

        internal IndexingDatabase Database { get; } = new();

        /// <summary>The keys in the order they were written, which is the index's order.</summary>
        internal IReadOnlyList<string> IndexOrder { get; }

        public void Dispose() => Database.Dispose();
    }

    public static TheoryData<string[], int> Windows => new()
    {
        { [], 97 }, { [], 1024 }, { ["N"], 333 }, { ["-N"], 1000 }, { ["Group", "-N"], 128 }, { ["Label"], 777 }, { ["-Group"], 1024 },
    };

    [Theory]
    [MemberData(nameof(Windows))]
    public void Every_window_of_start_and_page_size_covers_each_document_once_in_order(string[] sortBy, int pageSize)
    {
        var expected = Expected(sortBy);
        var seen = new List<string>();
        for (var start = 0; start < Count; start += pageSize)
        {
            var page = _fixture.Database.Query("Things", "*:*", pageSize, start, sortBy);
            Assert.Equal(Count, page.TotalResults);
            Assert.Equal(Math.Min(pageSize, Count - start), page.Results.Count);
            seen.AddRange(page.Results.Select(d => d.Key));
        }
        Assert.Equal(expected, seen);
    }

    [Theory]
    [MemberData(nameof(Windows))]
    public void Every_continuation_walk_covers_each_document_once_in_order(string[] sortBy, int pageSize)
    {
        var expected = Expected(sortBy);
        var seen = new List<string>();
        string? continuation = null;
        var pages = 0;
        do
        {
            var page = _fixture.Database.Query("Things", "*:*", pageSize, sortBy: sortBy, continuation: continuation);
            Assert.Equal(Count, page.TotalResults);
            seen.AddRange(page.Results.Select(d => d.Key));
            continuation = page.Continuation;
            pages++;
        }
        while (continuation is not null);
        Assert.Equal(expected, seen);
        Assert.Equal((Count + pageSize - 1) / pageSize, pages);
    }

    [Fact]
    public void A_filtered_result_pages_the_same_way()
    {
        var expected = Expected(["N"]).Where(k => int.Parse(k["things/".Length..], System.Globalization.CultureInfo.InvariantCulture) % 7 == 3).ToList();
        var seen = new List<string>();
        string? continuation = null;
        do
        {
            var page = _fixture.Database.Query("Things", "Group:3", 100, sortBy: ["N"], continuation: continuation);
            Assert.Equal(expected.Count, page.TotalResults);
            seen.AddRange(page.Results.Select(d => d.Key));
            continuation = page.Continuation;
        }
        while (continuation is not null);
        Assert.Equal(expected, seen);
    }

    [Fact]
    public void The_default_page_is_128_and_more_than_1024_is_clamped_and_reported()
    {
        var page = _fixture.Database.Db.Query("Things", new IndexQuery { Query = "*:*" });
        Assert.Equal((128, false), (page.PageSize, page.PageSizeClamped));
        Assert.Equal(128, page.Results.Count);

        var big = _fixture.Database.Query("Things", "*:*", pageSize: 5000);
        Assert.Equal((1024, true), (big.PageSize, big.PageSizeClamped));
        Assert.Equal(1024, big.Results.Count);
        Assert.NotNull(big.Continuation);
    }

    private IReadOnlyList<string> Expected(string[] sortBy)
    {
        var rank = _fixture.IndexOrder.Select((key, position) => (key, position)).ToDictionary(x => x.key, x => x.position);
        IEnumerable<string> keys = _fixture.IndexOrder;
        if (sortBy.Length == 0)
            return [.. keys];
        IOrderedEnumerable<string>? ordered = null;
        foreach (var sort in sortBy)
        {
            var descending = sort.StartsWith('-');
            Func<string, IComparable> value = sort.TrimStart('-') switch
            {
                "N" => k => N(k),
                "Group" => k => N(k) % 7,
                _ => k => $"L{(N(k) * 31) % 997:D4}",
            };
            ordered = ordered is null
                ? (descending ? keys.OrderByDescending(value) : keys.OrderBy(value))
                : (descending ? ordered.ThenByDescending(value) : ordered.ThenBy(value));
        }
        return [.. ordered!.ThenBy(k => rank[k])];
    }

    private static int N(string key) => int.Parse(key["things/".Length..], System.Globalization.CultureInfo.InvariantCulture);
}
