using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

/// <summary>
/// Results larger than a server page (1,024): ToList, Stream and StreamAsync, with orderings full of ties and nulls,
/// Skip and Take across page boundaries and distinct projections, against LINQ to Objects in order.
/// </summary>
public abstract class LargeResultDifferentialTests(Func<Task<StoreFixture>> start) : IAsyncLifetime
{
    public sealed class Reading
    {
        public string? Id { get; set; }
        public int Sensor { get; set; }
        public int? Level { get; set; }
        public decimal Value { get; set; }
    }

    private const int Count = 2600;
    private StoreFixture _fixture = null!;
    private RavenStore _store = null!;
    private List<Reading> _readings = null!;

    public async Task InitializeAsync()
    {
        _fixture = await start();
        _store = _fixture.OpenAnotherStore(new StoreConventions { MaxNumberOfRequestsPerSession = 100_000 });
        var random = new Random(2600);
        _readings = [.. Enumerable.Range(0, Count).Select(_ => new Reading
        {
            Sensor = random.Next(0, 7),
            Level = random.Next(4) == 0 ? null : random.Next(0, 5),
            Value = random.Next(0, 40) / 4m,
        })];
        foreach (var batch in _readings.Chunk(1000))
        {
            using var session = _store.OpenSession();
            foreach (var reading in batch)
                session.Store(reading);
            session.SaveChanges();
        }
        using var wait = _store.OpenSession();
        Assert.Equal(Count, wait.Query<Reading>().Where(x => x.Sensor >= 0).OrderBy(x => x.Level).ThenBy(x => x.Value)
            .WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Count());
    }

    public async Task DisposeAsync()
    {
        _store.Dispose();
        await _fixture.DisposeAsync();
    }

    private static readonly (string Name, Func<IQueryable<Reading>, IQueryable<Reading>> Shape)[] Shapes =
    [
        ("all", q => q.Where(x => x.Sensor >= 0)),
        ("Skip(1000).Take(1100)", q => q.Where(x => x.Sensor >= 0).Skip(1000).Take(1100)),
        ("Skip(1023).Take(3)", q => q.Where(x => x.Sensor >= 0).Skip(1023).Take(3)),
        ("Take(1025)", q => q.Where(x => x.Sensor >= 0).Take(1025)),
        ("OrderBy(Level).ThenByDescending(Value)", q => q.Where(x => x.Sensor >= 0).OrderBy(x => x.Level).ThenByDescending(x => x.Value)),
        ("OrderBy(Level).ThenByDescending(Value).Skip(1500).Take(1024)", q => q.Where(x => x.Sensor >= 0).OrderBy(x => x.Level).ThenByDescending(x => x.Value).Skip(1500).Take(1024)),
        ("Where(Sensor != 3).OrderByDescending(Sensor).Skip(999)", q => q.Where(x => x.Sensor != 3).OrderByDescending(x => x.Sensor).Skip(999)),
        ("Where(Level == null).OrderBy(Value)", q => q.Where(x => x.Level == null).OrderBy(x => x.Value)),
        ("OrderBy(Value).Skip(2599)", q => q.Where(x => x.Sensor >= 0).OrderBy(x => x.Value).Skip(2599)),
        ("OrderBy(Value).Skip(2600)", q => q.Where(x => x.Sensor >= 0).OrderBy(x => x.Value).Skip(2600)),
    ];

    private List<string> Expected(Func<IQueryable<Reading>, IQueryable<Reading>> shape) =>
        [.. shape(_readings.AsQueryable()).Select(x => x.Id!.ToLowerInvariant())];

    [Fact]
    public void ToList_over_many_pages_matches_LINQ_to_Objects_in_order()
    {
        using var session = _store.OpenSession();
        foreach (var (name, shape) in Shapes)
        {
            var got = shape(session.Query<Reading>()).ToList().Select(x => x.Id!.ToLowerInvariant()).ToList();
            Assert.True(Expected(shape).SequenceEqual(got), $"{name}: {Expected(shape).Count} expected, {got.Count} got");
            Assert.Equal(Expected(shape).Count, shape(session.Query<Reading>()).Count());
        }
    }

    [Fact]
    public async Task Stream_and_StreamAsync_over_many_pages_match_LINQ_to_Objects_in_order()
    {
        using var session = _store.OpenSession();
        foreach (var (name, shape) in Shapes)
        {
            var streamed = shape(session.Query<Reading>()).Stream().Select(x => x.Id!.ToLowerInvariant()).ToList();
            Assert.True(Expected(shape).SequenceEqual(streamed), $"Stream {name}: {Expected(shape).Count} expected, {streamed.Count} got");
            var asynchronous = new List<string>();
            await foreach (var reading in ((RavenQuery<Reading>)shape(session.Query<Reading>())).StreamAsync())
                asynchronous.Add(reading.Id!.ToLowerInvariant());
            Assert.True(Expected(shape).SequenceEqual(asynchronous), $"StreamAsync {name}: {Expected(shape).Count} expected, {asynchronous.Count} got");
        }
    }

    [Fact]
    public void Distinct_and_aggregates_over_many_pages_match_LINQ_to_Objects()
    {
        using var session = _store.OpenSession();
        IQueryable<Reading> query = session.Query<Reading>();
        IQueryable<Reading> oracle = _readings.AsQueryable();
        Assert.Equal(oracle.Select(x => x.Level).Distinct().ToList(), query.Select(x => x.Level).Distinct().ToList());
        Assert.Equal(oracle.Select(x => new { x.Sensor, x.Level }).Distinct().Count(), query.Select(x => new { x.Sensor, x.Level }).Distinct().Count());
        Assert.Equal(oracle.OrderBy(x => x.Value).Select(x => x.Sensor).Distinct().ToList(), query.OrderBy(x => x.Value).Select(x => x.Sensor).Distinct().ToList());
        Assert.Equal(oracle.Sum(x => x.Value), query.Sum(x => x.Value));
        Assert.Equal(oracle.Average(x => x.Level), query.Average(x => x.Level));
        Assert.Equal(oracle.Where(x => x.Sensor == 2).Max(x => x.Value), query.Where(x => x.Sensor == 2).Max(x => x.Value));
        Assert.Equal(oracle.Skip(1020).Select(x => x.Sensor).Take(10).ToList(), query.Skip(1020).Select(x => x.Sensor).Take(10).ToList());
    }
}

public sealed class EmbeddedLargeResultDifferentialTests() : LargeResultDifferentialTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()));

public sealed class RemoteLargeResultDifferentialTests() : LargeResultDifferentialTests(async () => await RemoteStoreFixture.StartAsync());
