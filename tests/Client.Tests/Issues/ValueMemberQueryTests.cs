using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// Shapes an exploratory differential run against LINQ to Objects answered wrongly:
/// <list type="bullet">
/// <item>a member of something the serializer writes as one value (<c>x.Day.Year</c> of a <c>DateOnly</c>, written
/// as "2020-01-01") was asked of the index as a path of its own and matched nothing; it is refused as
/// <c>DateTime.Day</c> already was, and a server-side projection of it (or of <c>x.Name.Length</c>,
/// <c>x.Tags.Count</c>) runs on the client instead of reading a field no document has;</item>
/// <item><c>string.Compare(x.Name, "b", StringComparison.Ordinal) &lt; 0</c> left out documents whose member is null,
/// which <c>string.Compare</c> orders before every string;</item>
/// <item><c>x.Address == null</c> on an object member was refused though the index marks it null or missing.</item>
/// </list>
/// </summary>
public sealed class ValueMemberQueryTests
{
    public sealed class Address
    {
        public string? City { get; set; }
    }

    public sealed class Row
    {
        public string? Id { get; set; }
        public string? Name { get; set; }
        public DateOnly Day { get; set; }
        public Address? Home { get; set; }
        public List<Address>? Places { get; set; }
        public List<string> Tags { get; set; } = [];
        public int N { get; set; }
    }

    private static List<Row> Rows()
    {
        var random = new Random(5);
        string?[] names = [null, "", "a", "A", "b", "B", "ba", "c", "\u00e9", "10", "9", "-1", "1e3", "\\", "a\\", "a\\\\"];
        string?[] cities = [null, "Oslo", "Rome"];
        return [.. Enumerable.Range(0, 120).Select(i => new Row
        {
            Id = $"rows/{i}",
            Name = names[random.Next(names.Length)],
            Day = new DateOnly(2019, 12, 1).AddDays(random.Next(60)),
            Home = random.Next(3) == 0 ? null : new Address { City = cities[random.Next(cities.Length)] },
            Places = random.Next(4) switch
            {
                0 => null,
                1 => [],
                _ => [.. Enumerable.Range(0, random.Next(1, 3)).Select(_ => new Address { City = cities[random.Next(1, cities.Length)] })],
            },
            Tags = [.. Enumerable.Range(0, random.Next(3)).Select(_ => names[random.Next(1, names.Length)]!)],
            N = random.Next(-2, 3),
        })];
    }

    private static async Task<StoreFixture> StoreAsync(bool remote, List<Row> rows)
    {
        StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        using var store = OpenStore(fixture);
        using var session = store.OpenSession();
        foreach (var row in rows)
            session.Store(row);
        session.SaveChanges();
        return fixture;
    }

    private static RavenStore OpenStore(StoreFixture fixture) =>
        fixture.OpenAnotherStore(new StoreConventions { MaxNumberOfRequestsPerSession = 10_000 });

    private static List<string?> Ids(IEnumerable<Row> rows) => [.. rows.Select(row => row.Id).Order(StringComparer.Ordinal)];

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_member_of_a_value_written_as_one_JSON_value_is_refused_not_matched_against_nothing(bool remote)
    {
        var rows = Rows();
        await using var fixture = await StoreAsync(remote, rows);
        using var store = OpenStore(fixture);
        using var session = store.OpenSession();
        var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
        var refused = Assert.Throws<NotSupportedException>(() => query.Where(x => x.Day.Year == 2019).ToList());
        Assert.Contains("'DateOnly.Year' is computed by .NET", refused.Message, StringComparison.Ordinal);
        Assert.Throws<NotSupportedException>(() => query.Where(x => x.Day.DayOfYear > 3).Count());
        Assert.Throws<NotSupportedException>(() => query.OrderBy(x => x.Day.Month).ToList());
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_projection_of_a_computed_member_equals_LINQ_to_Objects(bool remote)
    {
        var rows = Rows();
        await using var fixture = await StoreAsync(remote, rows);
        using var store = OpenStore(fixture);
        using var session = store.OpenSession();
        var projected = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1))
            .Select(x => new { x.Id, x.Day.Year, x.Tags.Count, Length = x.Day.Month })
            .ToList()
            .OrderBy(x => x.Id, StringComparer.Ordinal);
        var expected = rows.Select(x => new { x.Id, x.Day.Year, x.Tags.Count, Length = x.Day.Month }).OrderBy(x => x.Id, StringComparer.Ordinal);
        Assert.Equal(expected, projected);
        Assert.Contains(projected, x => x.Year == 2020);
        Assert.Contains(projected, x => x.Count > 0);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Ordinal_string_Compare_orders_null_before_every_string_as_CSharp_does(bool remote)
    {
        var rows = Rows();
        await using var fixture = await StoreAsync(remote, rows);
        using var store = OpenStore(fixture);
        using var session = store.OpenSession();
        var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
        foreach (var value in new[] { "", "a", "b", "ba", "z", "10", "9", "-1", "\\", "a\\", "a\\\\", "a\\b" })
        {
            Assert.Equal(Ids(rows.Where(x => string.Compare(x.Name, value, StringComparison.Ordinal) < 0)),
                Ids(query.Where(x => string.Compare(x.Name, value, StringComparison.Ordinal) < 0).ToList()));
            Assert.Equal(Ids(rows.Where(x => string.Compare(x.Name, value, StringComparison.Ordinal) >= 0)),
                Ids(query.Where(x => string.Compare(x.Name, value, StringComparison.Ordinal) >= 0).ToList()));
            Assert.Equal(Ids(rows.Where(x => string.Compare(value, x.Name, StringComparison.Ordinal) > 0)),
                Ids(query.Where(x => string.Compare(value, x.Name, StringComparison.Ordinal) > 0).ToList()));
            Assert.Equal(Ids(rows.Where(x => string.Compare(value, x.Name, StringComparison.Ordinal) <= 0)),
                Ids(query.Where(x => string.Compare(value, x.Name, StringComparison.Ordinal) <= 0).ToList()));
            // A quoted term after the range: an end ending in a backslash must not swallow it.
            Assert.Equal(Ids(rows.Where(x => string.Compare(x.Name, value, StringComparison.Ordinal) > 0 && x.Name != "b")),
                Ids(query.Where(x => string.Compare(x.Name, value, StringComparison.Ordinal) > 0 && x.Name != "b").ToList()));
        }
        Assert.Contains(rows, x => x.Name is null);
        // The index holds no null items of a collection, so where a null item would match the query is refused.
        Assert.Throws<NotSupportedException>(() => query.Where(x => x.Tags.Any(t => string.Compare(t, "b", StringComparison.Ordinal) < 0)).ToList());
        Assert.Equal(Ids(rows.Where(x => x.Tags.Any(t => string.Compare(t, "b", StringComparison.Ordinal) > 0))),
            Ids(query.Where(x => x.Tags.Any(t => string.Compare(t, "b", StringComparison.Ordinal) > 0)).ToList()));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task An_object_member_compared_with_null_equals_LINQ_to_Objects(bool remote)
    {
        var rows = Rows();
        await using var fixture = await StoreAsync(remote, rows);
        using var store = OpenStore(fixture);
        using var session = store.OpenSession();
        var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
        Assert.Equal(Ids(rows.Where(x => x.Home == null)), Ids(query.Where(x => x.Home == null).ToList()));
        Assert.Equal(Ids(rows.Where(x => x.Home != null)), Ids(query.Where(x => x.Home != null).ToList()));
        Assert.Equal(Ids(rows.Where(x => x.Home != null && x.Home.City == "Oslo")), Ids(query.Where(x => x.Home != null && x.Home.City == "Oslo").ToList()));
        Assert.Equal(Ids(rows.Where(x => !(x.Home == null) || x.N > 0)), Ids(query.Where(x => !(x.Home == null) || x.N > 0).ToList()));
        Assert.Equal(Ids(rows.Where(x => x.Places == null)), Ids(query.Where(x => x.Places == null).ToList()));
        Assert.Equal(Ids(rows.Where(x => x.Places != null)), Ids(query.Where(x => x.Places != null).ToList()));
        Assert.Equal(rows.Count(x => x.Home == null), query.Count(x => x.Home == null));
        Assert.InRange(rows.Count(x => x.Home == null), 1, rows.Count - 1);
        Assert.InRange(rows.Count(x => x.Places == null), 1, rows.Count - 1);
        // Only null: an object has no value of its own to compare.
        var home = new Address { City = "Oslo" };
        Assert.Throws<NotSupportedException>(() => query.Where(x => x.Home == home).ToList());
    }
}
