using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// A dictionary member is written as a JSON object with a property per key, yet a query treated it as a collection of
/// entries: <c>x.Map.Count == 0</c> and <c>x.Map.Any(kv =&gt; kv.Value &gt; 1)</c> matched nothing, where LINQ to Objects
/// finds the documents. Counting, Any, Keys and Values of a dictionary are refused, naming it, on both stores; a query
/// on the entity's other members still answers.
/// </summary>
public sealed class DictionaryMemberQueryTests
{
    public sealed class Row
    {
        public string? Id { get; set; }
        public int N { get; set; }
        public Dictionary<string, int> Map { get; set; } = [];
        public IReadOnlyDictionary<string, string> Labels { get; set; } = new Dictionary<string, string>();
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Counting_or_searching_the_entries_of_a_dictionary_is_refused(bool remote)
    {
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        using (var session = fixture.Store.OpenSession())
        {
            session.Store(new Row { N = 1 }, "rows/1");
            session.Store(new Row { N = 2, Map = new() { ["a"] = 2 }, Labels = new Dictionary<string, string> { ["k"] = "v" } }, "rows/2");
            session.SaveChanges();
        }
        using (var session = fixture.Store.OpenSession())
        {
            var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
            var refused = Assert.Throws<NotSupportedException>(() => query.Where(x => x.Map.Count == 0).ToList());
            Assert.Contains("is written as a JSON object with a property per key", refused.Message, StringComparison.Ordinal);
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Map.Any()).ToList());
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Map.Any(kv => kv.Value > 1)).ToList());
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Map.Keys.Contains("a")).ToList());
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Map.Values.Any(v => v > 1)).ToList());
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Labels.Count > 0).ToList());
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Labels.Any(kv => kv.Key == "k")).ToList());
            Assert.Equal("rows/2", Assert.Single(query.Where(x => x.N == 2).ToList()).Id);
        }
    }
}
