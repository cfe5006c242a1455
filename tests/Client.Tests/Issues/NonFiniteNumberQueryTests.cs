using System.Linq.Expressions;
using Newtonsoft.Json;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// NaN and the infinities of float and double members are written by Newtonsoft as text by default
/// (<c>FloatFormatHandling.String</c>: JSON has no such numbers), which the index keeps apart from the member's
/// numbers. A range missed them (<c>x.D &gt; 1</c> left out every document holding +∞), and an order, an aggregate or a
/// facet of the member placed them nowhere (<c>Max</c> gave 2 where LINQ gives +∞). Now a range also matches the
/// infinity it reaches in C#; an order, aggregate or facet of such a member is refused when one of its matches holds
/// such a value, and answered as before when none does. Generated comparisons against LINQ to Objects, both stores,
/// with the default settings and with <c>FloatFormatHandling.DefaultValue</c> (written as 0: nothing to refuse).
/// </summary>
public sealed class NonFiniteNumberQueryTests
{
    public sealed class Row
    {
        public string? Id { get; set; }
        public double D { get; set; }
        public double? Maybe { get; set; }
        public float F { get; set; }
        public List<double> Ds { get; set; } = [];
    }

    private static readonly double[] s_values = [double.NaN, double.PositiveInfinity, double.NegativeInfinity, -2, -0.0, 0, 0.5, 1, 2.5];
    private static readonly double[] s_bounds = [-3, -2, -0.5, 0, 0.5, 1, 2.5, 3];

    public static TheoryData<bool, FloatFormatHandling> Stores() => new()
    {
        { false, FloatFormatHandling.String }, { true, FloatFormatHandling.String },
        { false, FloatFormatHandling.DefaultValue }, { true, FloatFormatHandling.DefaultValue },
    };

    [Theory]
    [MemberData(nameof(Stores))]
    public async Task Ranges_over_NaN_and_infinities_answer_as_LINQ_does(bool remote, FloatFormatHandling writing)
    {
        await using var data = await Data.StoreAsync(remote, writing, seed: 33);
        var cases = new List<(string Name, Expression<Func<Row, bool>> Predicate)>();
        foreach (var bound in s_bounds)
        {
            var single = (float)bound;
            cases.AddRange(
            [
                ($"D > {bound}", x => x.D > bound), ($"D >= {bound}", x => x.D >= bound),
                ($"D < {bound}", x => x.D < bound), ($"D <= {bound}", x => x.D <= bound),
                ($"!(D > {bound})", x => !(x.D > bound)), ($"D != {bound}", x => x.D != bound),
                ($"Maybe > {bound}", x => x.Maybe > bound), ($"Maybe <= {bound}", x => x.Maybe <= bound),
                ($"F >= {bound}", x => x.F >= single), ($"F < {bound}", x => x.F < single),
                ($"Ds.Any(d > {bound})", x => x.Ds.Any(d => d > bound)), ($"Ds.Any(d <= {bound})", x => x.Ds.Any(d => d <= bound)),
                ($"D > {bound} || D < -{bound}", x => x.D > bound || x.D < -bound),
                ($"D >= {bound} && D <= {bound} + 2", x => x.D >= bound && x.D <= bound + 2),
            ]);
        }
        var wrong = new List<string>();
        using var session = data.Store.OpenSession();
        foreach (var (name, predicate) in cases)
        {
            var expected = data.Oracle.Where(predicate.Compile()).Select(r => r.Id).Order(StringComparer.Ordinal).ToList();
            var actual = session.Query<Row>().Where(predicate).WaitForNonStaleResults(TimeSpan.FromMinutes(1)).ToList()
                .Select(r => r.Id).Order(StringComparer.Ordinal).ToList();
            if (!expected.SequenceEqual(actual))
                wrong.Add($"{name}: expected {expected.Count}, got {actual.Count}");
        }
        Assert.Empty(wrong);
    }

    [Theory]
    [MemberData(nameof(Stores))]
    public async Task Orders_aggregates_and_facets_are_refused_where_a_match_holds_NaN_or_an_infinity_as_text(bool remote, FloatFormatHandling writing)
    {
        await using var data = await Data.StoreAsync(remote, writing, seed: 34);
        using var session = data.Store.OpenSession();
        IQueryable<Row> All() => session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
        IQueryable<Row> Finite() => All().Where(x => x.D >= -2 && x.D <= 2.5 && x.F >= -2 && x.F <= 2.5);
        var finite = data.Oracle.Where(x => x.D >= -2 && x.D <= 2.5 && x.F >= -2 && x.F <= 2.5).ToList();
        Assert.NotEmpty(finite);
        var refusing = writing == FloatFormatHandling.String;
        // Written as text, they read back as they were; written as the default value, as 0.
        Assert.Equal(refusing, data.Oracle.Any(x => !double.IsFinite(x.D)));
        Answers(Ordered(data.Oracle, descending: false), () => Ids(All().OrderBy(x => x.D).ThenBy(x => x.Id)));
        Answers(Ordered(data.Oracle, descending: true), () => Ids(All().OrderByDescending(x => x.D).ThenBy(x => x.Id)));
        Answers(data.Oracle.Max(x => x.F), () => All().Max(x => x.F));
        Answers(data.Oracle.Min(x => x.D), () => All().Min(x => x.D));
        Answers(data.Oracle.Sum(x => x.D), () => All().Sum(x => x.D));
        Answers(data.Oracle.Average(x => x.D), () => All().Average(x => x.D));
        Answers(Ranges(data.Oracle), () => string.Join(",", All().AggregateByRanges(x => x.D, 0.0, 1.0).Execute()[0].Values.Select(v => v.Count)));
        Answers(Ids(data.Oracle.OrderBy(x => x.D).ThenBy(x => x.Id, StringComparer.Ordinal)),
            () => Ids(((RavenQuery<Row>)All().OrderBy(x => x.D).ThenBy(x => x.Id)).Stream()));
        // An order before GroupBy reads the matches in that order, to group them in memory.
        Answers(string.Join(";", data.Oracle.OrderBy(x => x.D).ThenBy(x => x.Id, StringComparer.Ordinal).GroupBy(x => x.Ds.Count).OrderBy(g => g.Key).Select(g => $"{g.Key}:{g.First().Id}")),
            () => string.Join(";", All().OrderBy(x => x.D).ThenBy(x => x.Id, StringComparer.Ordinal).GroupBy(x => x.Ds.Count).Select(g => new { g.Key, First = g.First().Id })
                .ToList().OrderBy(g => g.Key).Select(g => $"{g.Key}:{g.First}")));
        if (refusing)
            await Assert.ThrowsAsync<NotSupportedException>(() => ((RavenQuery<Row>)All().OrderBy(x => x.F)).ToListAsync());

        // Without such values among the matches, each is answered.
        Assert.Equal(Ordered(finite, descending: false), Ids(Finite().OrderBy(x => x.D).ThenBy(x => x.Id)));
        Assert.Equal(finite.Max(x => x.F), Finite().Max(x => x.F));
        Assert.Equal(finite.Sum(x => x.D), Finite().Sum(x => x.D), 9);
        Assert.Equal(Ranges(finite), string.Join(",", Finite().AggregateByRanges(x => x.D, 0.0, 1.0).Execute()[0].Values.Select(v => v.Count)));

        void Answers<TResult>(TResult expected, Func<TResult> run)
        {
            if (refusing)
                Assert.Contains("NaN or an infinity", Assert.Throws<NotSupportedException>(() => run()).Message, StringComparison.Ordinal);
            else
                Assert.Equal(expected, run());
        }
    }

    private static string Ordered(IEnumerable<Row> rows, bool descending) =>
        Ids(descending ? rows.OrderByDescending(x => x.D).ThenBy(x => x.Id, StringComparer.Ordinal) : rows.OrderBy(x => x.D).ThenBy(x => x.Id, StringComparer.Ordinal));

    private static string Ids(IEnumerable<Row> rows) => string.Join(",", rows.Select(r => r.Id));

    private static string Ranges(IReadOnlyCollection<Row> rows) =>
        $"{rows.Count(x => x.D < 0)},{rows.Count(x => x.D >= 0 && x.D < 1)},{rows.Count(x => x.D >= 1)}";

    /// <summary>Generated rows in a fresh store written with <c>FloatFormatHandling</c> as given, and the rows as read back.</summary>
    private sealed class Data(StoreFixture fixture, RavenStore store, List<Row> oracle) : IAsyncDisposable
    {
        public RavenStore Store => store;

        public List<Row> Oracle => oracle;

        public static async Task<Data> StoreAsync(bool remote, FloatFormatHandling writing, int seed)
        {
            StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
            var settings = new JsonSerializerSettings { FloatFormatHandling = writing };
            var store = fixture.OpenAnotherStore(new StoreConventions { SerializerSettings = settings, MaxNumberOfRequestsPerSession = 10_000 });
            var random = new Random(seed);
            double Next() => s_values[random.Next(s_values.Length)];
            var rows = Enumerable.Range(0, 90).Select(_ => new Row
            {
                D = Next(),
                Maybe = random.Next(4) == 0 ? null : Next(),
                F = (float)Next(),
                Ds = [.. Enumerable.Range(0, random.Next(3)).Select(_ => Next())],
            }).ToList();
            using (var session = store.OpenSession())
            {
                foreach (var row in rows)
                    session.Store(row);
                session.SaveChanges();
            }
            var oracle = rows.Select(row => JsonConvert.DeserializeObject<Row>(JsonConvert.SerializeObject(row, settings), settings)!).ToList();
            using (var session = store.OpenSession())
                Assert.Equal(rows.Count, session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).Count());
            return new Data(fixture, store, oracle);
        }

        public async ValueTask DisposeAsync()
        {
            store.Dispose();
            await fixture.DisposeAsync();
        }
    }
}
