using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// A query's condition read the variables it captured when <c>Where</c> was called: after
/// <c>var q = query.Where(x =&gt; x.N == n); n = 2;</c> the next run of <c>q</c> still matched the old value, where LINQ to
/// Objects (and EF) read variables when the query runs. Conditions now read them at each run (translated again only
/// when a value read from outside the entity has changed, a collection's items included).
/// </summary>
public sealed class CapturedValueQueryTests
{
    public sealed class Row
    {
        public string? Id { get; set; }
        public string? Name { get; set; }
        public int N { get; set; }
    }

    private sealed class Holder
    {
        public int Value { get; set; }
    }

    private static readonly string[] Names = ["a", "b", "c"];

    private static List<Row> Rows() => [.. Enumerable.Range(0, 60).Select(i => new Row { Id = $"rows/{i}", Name = Names[i % 3], N = i % 7 })];

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_query_run_again_reads_the_variables_it_captured_as_they_are_then(bool remote)
    {
        var rows = Rows();
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        using var store = fixture.OpenAnotherStore(new StoreConventions { MaxNumberOfRequestsPerSession = 1_000 });
        using (var session = store.OpenSession())
        {
            foreach (var row in rows)
                session.Store(row);
            session.SaveChanges();
        }
        using (var session = store.OpenSession())
        {
            var n = 0;
            var name = "a";
            var holder = new Holder { Value = 3 };
            var names = new List<string> { "a" };
            var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
            var byN = query.Where(x => x.N == n);
            var byName = query.Where(x => x.Name == name && x.N < holder.Value);
            var byNames = query.Where(x => names.Contains(x.Name!));
            Assert.Equal(rows.Count(x => x.N == 0), byN.Count());
            Assert.Equal(rows.Count(x => x.Name == "a" && x.N < 3), byName.ToList().Count);
            Assert.Equal(rows.Count(x => x.Name == "a"), byNames.Count());

            n = 2;
            name = "b";
            holder.Value = 5;
            names.Add("c");
            Assert.Equal(rows.Where(x => x.N == 2).Select(x => x.Id).Order(StringComparer.Ordinal), byN.ToList().Select(x => x.Id).Order(StringComparer.Ordinal));
            Assert.Equal(rows.Count(x => x.Name == "b" && x.N < 5), byName.Count());
            Assert.Equal(rows.Count(x => x.Name is "a" or "c"), byNames.Count());
            Assert.Equal(rows.Where(x => x.N == 2).Sum(x => x.N), byN.Sum(x => x.N));
            Assert.Equal(rows.Count(x => x.N == 2 && x.Name == "b"), byN.Where(x => x.Name == name).Count());
        }
    }
}
