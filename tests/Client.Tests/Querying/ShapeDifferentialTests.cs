#pragma warning disable CA1304, CA1311, CA1862 // the shapes are written as users write them
using System.Linq.Expressions;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

/// <summary>
/// Shapes the predicate-level differential (<see cref="LinqDifferentialTests"/>) does not reach, each against LINQ to
/// Objects over the same generated items, whose values are drawn from few so that sort keys tie and nullable members
/// are often null: orderings of every member kind (nullable ones, strings, enums, instants) with ThenBy chains and
/// paging; aggregates on empty results and nullable members; distinct projections with paging; continuation walks
/// with writes between pages. Every answer is the oracle's or a <see cref="NotSupportedException"/>.
/// </summary>
public abstract class ShapeDifferentialTests(Func<Task<StoreFixture>> start, int seed) : IAsyncLifetime
{
    public enum Level { Low, Mid, High }

    public sealed class Item
    {
        public string? Id { get; set; }
        public string? Name { get; set; }
        public int Rank { get; set; }
        public int? Score { get; set; }
        public long Big { get; set; }
        public decimal Price { get; set; }
        public decimal? Tip { get; set; }
        public double Weight { get; set; }
        public double? Rating { get; set; }
        public DateTime At { get; set; }
        public DateTime? ShippedAt { get; set; }
        public DateTimeOffset When { get; set; }
        public Level Grade { get; set; }
        public Level? MaybeGrade { get; set; }
        public bool Flag { get; set; }
        public bool? MaybeFlag { get; set; }
        public List<string> Tags { get; set; } = [];
    }

    private const int Count = 240;
    protected StoreFixture Fixture { get; private set; } = null!;
    protected RavenStore Store { get; private set; } = null!;

    /// <summary>The items as a reader of their JSON gets them, in storage (etag) order: the index's tie-break.</summary>
    protected List<Item> Items { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        Fixture = await start();
        Store = Fixture.OpenAnotherStore(new StoreConventions { MaxNumberOfRequestsPerSession = 100_000 });
        var items = Generate(new Random(seed), Count);
        using (var session = Store.OpenSession())
        {
            foreach (var item in items)
                session.Store(item);
            session.SaveChanges();
        }
        Items = [.. items.Select(Clone)];
        using var wait = Store.OpenSession();
        Assert.Equal(Count, wait.Query<Item>().Where(x => x.Rank >= -1000).WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Count());
    }

    public async Task DisposeAsync()
    {
        Store.Dispose();
        await Fixture.DisposeAsync();
    }

    internal static Item Clone(Item item) =>
        Newtonsoft.Json.JsonConvert.DeserializeObject<Item>(Newtonsoft.Json.JsonConvert.SerializeObject(item))!;

    private static readonly string?[] Names = [null, "", "a", "A", "b", "B", "ab", "a b", "é", "e\u0301", "😀", "z", "a:b", "a*b", "quote\"d", "back\\slash", "+plus", "(p)"];
    private static readonly decimal[] Prices = [0m, 1.5m, 1.50m, 2.25m, -3m, 10m, 100m];
    private static readonly double[] Weights = [0.5, -0.0, 0.0, 1, 2.75, -1];
    private static readonly DateTime Base = new(2020, 1, 1, 8, 0, 0, DateTimeKind.Utc);

    internal static Item NewItem(Random random)
    {
        var at = Base.AddHours(random.Next(0, 3));
        at = random.Next(3) switch { 0 => at, 1 => at.AddMilliseconds(random.Next(1, 3) * 250), _ => at.AddTicks(random.Next(1, 3)) };
        if (random.Next(4) == 0)
            at = DateTime.SpecifyKind(at, DateTimeKind.Unspecified);
        return new Item
        {
            Name = Names[random.Next(Names.Length)],
            Rank = random.Next(-2, 4),
            Score = random.Next(3) == 0 ? null : random.Next(0, 4),
            Big = random.Next(4) switch { 0 => long.MaxValue, 1 => long.MinValue, 2 => 9007199254740993L, _ => 9007199254740992L },
            Price = Prices[random.Next(Prices.Length)],
            Tip = random.Next(3) == 0 ? null : Prices[random.Next(Prices.Length)],
            Weight = Weights[random.Next(Weights.Length)],
            Rating = random.Next(3) == 0 ? null : Weights[random.Next(Weights.Length)],
            At = at,
            ShippedAt = random.Next(3) == 0 ? null : Base.AddDays(random.Next(0, 3)),
            // The same instants written in other offsets tie.
            When = new DateTimeOffset(Base.AddHours(random.Next(0, 3))).ToOffset(TimeSpan.FromHours(random.Next(-3, 4))),
            Grade = (Level)random.Next(3),
            MaybeGrade = random.Next(3) == 0 ? null : (Level)random.Next(3),
            Flag = random.Next(2) == 0,
            MaybeFlag = random.Next(3) == 0 ? null : random.Next(2) == 0,
            Tags = [.. Enumerable.Range(0, random.Next(0, 4)).Select(_ => Names[random.Next(1, 8)]!)],
        };
    }

    private static List<Item> Generate(Random random, int count) => [.. Enumerable.Range(0, count).Select(_ => NewItem(random))];

    /// <summary>Conditions the shapes run under: broad, narrow, on nullable members, and ones no item meets.</summary>
    protected static IEnumerable<(string Name, Expression<Func<Item, bool>> Predicate)> Conditions()
    {
        yield return ("all", x => x.Rank >= -1000);
        yield return ("Rank > 0", x => x.Rank > 0);
        yield return ("Score == null", x => x.Score == null);
        yield return ("Score >= 2", x => x.Score >= 2);
        yield return ("Tip != null", x => x.Tip != null);
        yield return ("Name == a", x => x.Name == "a");
        yield return ("Flag && Grade == High", x => x.Flag && x.Grade == Level.High);
        yield return ("MaybeGrade == null", x => x.MaybeGrade == null);
        yield return ("MaybeFlag == true", x => x.MaybeFlag == true);
        yield return ("none (Rank > 100)", x => x.Rank > 100);
        yield return ("none (Name == nobody)", x => x.Name == "nobody");
        yield return ("Price < 0", x => x.Price < 0);
    }

    private static readonly string[] SortMembers =
        ["Name", "Rank", "Score", "Big", "Price", "Tip", "Weight", "Rating", "At", "ShippedAt", "When", "Grade", "MaybeGrade", "Flag", "MaybeFlag"];

    /// <summary>
    /// OrderBy/ThenBy chains of one to four keys over members full of ties and nulls, under a condition, with Skip and
    /// Take before or after; compared in order. Strings with LINQ's default comparer (the current culture: the test
    /// process runs the invariant one) or with StringComparer.Ordinal, on both sides; nulls first ascending as LINQ's
    /// comparer puts them, ties in storage order.
    /// </summary>
    [Fact]
    public void Orderings_of_nullable_and_tied_members_with_paging_match_LINQ_to_Objects_in_order()
    {
        var random = new Random(seed * 7 + 1);
        var conditions = Conditions().ToList();
        var wrong = new List<string>();
        var refused = new List<string>();
        var right = 0;
        using var session = Store.OpenSession();
        for (var i = 0; i < 120; i++)
        {
            var (conditionName, predicate) = conditions[random.Next(conditions.Count)];
            var name = $"Where[{conditionName}]";
            var server = new List<Func<IQueryable<Item>, IQueryable<Item>>>();
            var oracle = new List<Func<IQueryable<Item>, IQueryable<Item>>>();
            var keys = random.Next(1, 5);
            for (var k = 0; k < keys; k++)
            {
                var member = SortMembers[random.Next(SortMembers.Length)];
                var method = (k == 0 ? "OrderBy" : "ThenBy") + (random.Next(2) == 0 ? "" : "Descending");
                // Strings order with the current culture by default (the invariant culture's sort keys), or by code point with StringComparer.Ordinal.
                var ordinal = random.Next(3) == 0;
                server.Add(q => Sorted(q, method, member, ordinal));
                oracle.Add(q => Sorted(q, method, member, ordinal));
                name += $".{method}({member}{(ordinal ? ", Ordinal" : "")})";
            }
            if (random.Next(3) > 0)
            {
                var skip = random.Next(0, 60);
                server.Add(q => q.Skip(skip));
                oracle.Add(q => q.Skip(skip));
                name += $".Skip({skip})";
            }
            if (random.Next(3) > 0)
            {
                var take = random.Next(0, 80);
                server.Add(q => q.Take(take));
                oracle.Add(q => q.Take(take));
                name += $".Take({take})";
            }
            var expected = oracle.Aggregate(Items.AsQueryable().Where(predicate), (q, apply) => apply(q)).Select(x => x.Id!).ToList();
            try
            {
                var query = ((IQueryable<Item>)session.Query<Item>().WaitForNonStaleResults(TimeSpan.FromMinutes(2))).Where(predicate);
                var got = server.Aggregate(query, (q, apply) => apply(q)).ToList().Select(x => x.Id!).ToList();
                if (got.SequenceEqual(expected, StringComparer.OrdinalIgnoreCase))
                    right++;
                else
                    wrong.Add($"{name}: {expected.Count} expected, {got.Count} got, first difference at {got.Zip(expected).TakeWhile(p => string.Equals(p.First, p.Second, StringComparison.OrdinalIgnoreCase)).Count()}");
            }
            catch (NotSupportedException e)
            {
                refused.Add($"{name}: {e.Message[..Math.Min(120, e.Message.Length)]}");
            }
        }
        Assert.True(wrong.Count == 0, $"{wrong.Count} wrong orders of 120:\n" + string.Join("\n", wrong));
        Assert.True(right >= 90, $"only {right} of 120 answered; refused:\n" + string.Join("\n", refused));
    }

    private static IQueryable<Item> Sorted(IQueryable<Item> source, string method, string member, bool ordinal)
    {
        var parameter = Expression.Parameter(typeof(Item), "x");
        var key = Expression.Lambda(Expression.Property(parameter, member), parameter);
        if (ordinal && key.ReturnType == typeof(string))
        {
            var call = Expression.Call(typeof(Queryable), method, [typeof(Item), typeof(string)], source.Expression, Expression.Quote(key),
                Expression.Constant(StringComparer.Ordinal, typeof(IComparer<string>)));
            return source.Provider.CreateQuery<Item>(call);
        }
        var plain = Expression.Call(typeof(Queryable), method, [typeof(Item), key.ReturnType], source.Expression, Expression.Quote(key));
        return source.Provider.CreateQuery<Item>(plain);
    }

    /// <summary>What a call returns or throws, as text, so the store's and LINQ's outcomes compare whatever the type.</summary>
    private static string Outcome(Func<object?> run)
    {
        try
        {
            return run() switch
            {
                null => "null",
                double d => "double " + d.ToString("R", System.Globalization.CultureInfo.InvariantCulture),
                float f => "float " + f.ToString("R", System.Globalization.CultureInfo.InvariantCulture),
                DateTime t => $"DateTime {t.ToUniversalTime():O}",
                DateTimeOffset o => $"DateTimeOffset {o.UtcTicks}",
                Item item => "Item " + item.Id!.ToLowerInvariant(),
                // Equal decimals of other scales (1.5 and 1.50) are one value.
                decimal m => "decimal " + m.ToString("0.############################", System.Globalization.CultureInfo.InvariantCulture),
                IFormattable value => value.GetType().Name + " " + value.ToString(null, System.Globalization.CultureInfo.InvariantCulture),
                var other => other.GetType().Name + " " + other,
            };
        }
        catch (NotSupportedException)
        {
            throw;
        }
        catch (Exception e) when (e is InvalidOperationException or OverflowException)
        {
            return e.GetType().Name;
        }
    }

    /// <summary>
    /// Every aggregate a user writes, on every numeric, nullable and instant member, under conditions that match many,
    /// few and none: the value LINQ to Objects gives, or the exception it throws (an empty Min of a non-nullable
    /// member, an empty Average), or a refusal.
    /// </summary>
    [Fact]
    public void Aggregates_on_empty_and_nullable_members_match_LINQ_to_Objects()
    {
        var tally = new Tally();
        using var session = Store.OpenSession();
        foreach (var (conditionName, predicate) in Conditions())
        {
            IQueryable<Item> q = session.Query<Item>().WaitForNonStaleResults(TimeSpan.FromMinutes(2));
            q = q.Where(predicate);
            var o = Items.AsQueryable().Where(predicate);
            var calls = new List<(string, Func<IQueryable<Item>, object?>)>
            {
                ("Count", s => s.Count()),
                ("LongCount", s => s.LongCount()),
                ("Any", s => s.Any()),
                ("Count(Flag)", s => s.Count(x => x.Flag)),
                ("Any(Score == null)", s => s.Any(x => x.Score == null)),
                ("Sum(Rank)", s => s.Sum(x => x.Rank)),
                ("Sum(Score)", s => s.Sum(x => x.Score)),
                ("Sum(Price)", s => s.Sum(x => x.Price)),
                ("Sum(Tip)", s => s.Sum(x => x.Tip)),
                ("Sum(Weight)", s => s.Sum(x => x.Weight)),
                ("Sum(Rating)", s => s.Sum(x => x.Rating)),
                ("Min(Rank)", s => s.Min(x => x.Rank)),
                ("Max(Rank)", s => s.Max(x => x.Rank)),
                ("Min(Score)", s => s.Min(x => x.Score)),
                ("Max(Score)", s => s.Max(x => x.Score)),
                ("Min(Big)", s => s.Min(x => x.Big)),
                ("Max(Big)", s => s.Max(x => x.Big)),
                ("Min(Price)", s => s.Min(x => x.Price)),
                ("Max(Tip)", s => s.Max(x => x.Tip)),
                ("Min(Tip)", s => s.Min(x => x.Tip)),
                ("Min(Weight)", s => s.Min(x => x.Weight)),
                ("Max(Rating)", s => s.Max(x => x.Rating)),
                ("Min(Rating)", s => s.Min(x => x.Rating)),
                ("Min(At)", s => s.Min(x => x.At)),
                ("Max(At)", s => s.Max(x => x.At)),
                ("Min(ShippedAt)", s => s.Min(x => x.ShippedAt)),
                ("Max(ShippedAt)", s => s.Max(x => x.ShippedAt)),
                ("Min(When)", s => s.Min(x => x.When)),
                ("Max(When)", s => s.Max(x => x.When)),
                ("Min(Grade)", s => s.Min(x => x.Grade)),
                ("Max(MaybeGrade)", s => s.Max(x => x.MaybeGrade)),
                ("Average(Rank)", s => s.Average(x => x.Rank)),
                ("Average(Score)", s => s.Average(x => x.Score)),
                ("Average(Price)", s => s.Average(x => x.Price)),
                ("Average(Tip)", s => s.Average(x => x.Tip)),
                ("Average(Rating)", s => s.Average(x => x.Rating)),
                ("Average(Big)", s => s.Average(x => (double)x.Big)),
                ("Sum(Weight) as float", s => s.Sum(x => (float)x.Weight)),
                ("Sum((long)Rank)", s => s.Sum(x => (long)x.Rank)),
                ("Sum(Rank * 2)", s => s.Sum(x => x.Rank * 2)),
                ("Max(Flag)", s => s.Max(x => x.Flag)),
                ("Min(MaybeFlag)", s => s.Min(x => x.MaybeFlag)),
                ("Count(Score > 1)", s => s.Count(x => x.Score > 1)),
                ("Any(Tip == null)", s => s.Any(x => x.Tip == null)),
                ("Max(Score ?? -1)", s => s.Max(x => x.Score ?? -1)),
                ("First", s => s.OrderBy(x => x.Rank).ThenBy(x => x.Price).First()),
                ("FirstOrDefault", s => s.OrderByDescending(x => x.Score).FirstOrDefault()),
                ("Single", s => s.Single()),
                ("SingleOrDefault", s => s.SingleOrDefault()),
                ("Last", s => s.OrderBy(x => x.Rank).Last()),
                ("Skip(3).Count", s => s.Skip(3).Count()),
                ("Take(5).Count", s => s.Take(5).Count()),
                ("Take(5).Sum(Rank)", s => s.OrderBy(x => x.Rank).Take(5).Sum(x => x.Rank)),
                ("Skip(10).Any", s => s.Skip(10).Any()),
                ("Take(0).Any", s => s.Take(0).Any()),
                ("Select(Score).Max", s => s.Select(x => x.Score).Max()),
                ("Select(Price).Sum", s => s.Select(x => x.Price).Sum()),
            };
            foreach (var (callName, call) in calls)
                tally.Outcomes($"Where[{conditionName}].{callName}", Outcome(() => call(o)), () => Outcome(() => call(q)));
        }
        tally.AssertNoneWrong(minimumRight: 400);

        // long sums are exact (docs/indexing.md): an OverflowException only when the total is outside long, where
        // LINQ to Objects also throws when its running total overflows on the way, which depends on the order.
        foreach (var (conditionName, predicate) in Conditions())
        {
            IQueryable<Item> q = session.Query<Item>().WaitForNonStaleResults(TimeSpan.FromMinutes(2));
            q = q.Where(predicate);
            var bigs = Items.AsQueryable().Where(predicate).Select(x => (System.Numerics.BigInteger)x.Big).ToList();
            var total = bigs.Aggregate(System.Numerics.BigInteger.Zero, (a, b) => a + b);
            var fits = total >= long.MinValue && total <= long.MaxValue;
            Assert.Equal(fits ? $"Int64 {total}" : "OverflowException", Outcome(() => q.Sum(x => x.Big)));
            var average = Outcome(() => q.Average(x => x.Big));
            var expected = bigs.Count == 0 ? "InvalidOperationException" : "double " + ((double)total / bigs.Count).ToString("R", System.Globalization.CultureInfo.InvariantCulture);
            Assert.True(average == expected || Close(average, expected), $"Where[{conditionName}].Average(Big): expected {expected}, got {average}");
        }
    }

    /// <summary>
    /// Operators composed in the orders LINQ allows (paging twice, sorting after paging, sorting twice, aggregates
    /// and element access after paging, projections then paging): each is what LINQ to Objects gives in order, or refused.
    /// </summary>
    [Fact]
    public void Composed_operators_match_LINQ_to_Objects_or_refuse()
    {
        var calls = new List<(string, Func<IQueryable<Item>, object?>)>
        {
            ("Skip(5).Skip(3)", s => Ids(s.Skip(5).Skip(3))),
            ("Take(10).Take(5)", s => Ids(s.Take(10).Take(5))),
            ("Take(5).Take(10)", s => Ids(s.Take(5).Take(10))),
            ("Take(5).Skip(2)", s => Ids(s.Take(5).Skip(2))),
            ("Skip(2).Take(5).Skip(1)", s => Ids(s.Skip(2).Take(5).Skip(1))),
            ("Skip(2).Take(5).Take(2)", s => Ids(s.Skip(2).Take(5).Take(2))),
            ("Skip(230).Take(20)", s => Ids(s.Skip(230).Take(20))),
            ("Skip(1000)", s => Ids(s.Skip(1000))),
            ("Take(0)", s => Ids(s.Take(0))),
            ("OrderBy(Rank).OrderBy(Price)", s => Ids(s.OrderBy(x => x.Rank).OrderBy(x => x.Price))),
            ("OrderBy(Rank).Take(10).OrderBy(Price)", s => Ids(s.OrderBy(x => x.Rank).Take(10).OrderBy(x => x.Price))),
            ("Take(10).OrderBy(Rank)", s => Ids(s.Take(10).OrderBy(x => x.Rank))),
            ("Skip(10).OrderBy(Rank)", s => Ids(s.Skip(10).OrderBy(x => x.Rank))),
            ("OrderBy(Rank).Skip(10).ThenBy(Price)", s => Ids(s.OrderBy(x => x.Rank).Skip(10).OrderBy(x => x.Price))),
            ("OrderByDescending(Rank).ThenBy(Score).Skip(10).Take(10)", s => Ids(s.OrderByDescending(x => x.Rank).ThenBy(x => x.Score).Skip(10).Take(10))),
            ("OrderBy(Price).ThenBy(Rank).OrderByDescending(Score).ThenBy(Grade)", s => Ids(s.OrderBy(x => x.Price).ThenBy(x => x.Rank).OrderByDescending(x => x.Score).ThenBy(x => x.Grade))),
            ("OrderBy(Rank).OrderBy(Rank)", s => Ids(s.OrderBy(x => x.Rank).OrderByDescending(x => x.Rank))),
            ("OrderBy(Rank).Where(Flag)", s => Ids(s.OrderBy(x => x.Rank).Where(x => x.Flag))),
            ("OrderBy(Rank).Reverse()", s => Ids(s.OrderBy(x => x.Rank).Reverse())),
            ("Select(Rank).Skip(3).Take(4)", s => string.Join(",", s.Select(x => x.Rank).Skip(3).Take(4).ToList())),
            ("Select(new { Name, Rank }).OrderBy(Rank)", s => string.Join(",", s.Select(x => new { x.Name, x.Rank }).OrderBy(a => a.Rank).ToList())),
            ("OrderBy(Rank).Select(Name).Distinct().Take(3)", s => string.Join(",", s.OrderBy(x => x.Rank).Select(x => x.Name).Distinct().Take(3).ToList())),
            ("OrderBy(Rank).Select(Rank).Take(3).Sum()", s => s.OrderBy(x => x.Rank).Select(x => x.Rank).Take(3).Sum()),
            ("Take(3).Max(Rank)", s => s.Take(3).Max(x => x.Rank)),
            ("Skip(3).Min(Rank)", s => s.Skip(3).Min(x => x.Rank)),
            ("Take(7).Average(Rank)", s => s.Take(7).Average(x => x.Rank)),
            ("Take(7).Average(Score)", s => s.Take(7).Average(x => x.Score)),
            ("Take(3).Count(Flag)", s => s.Take(3).Count(x => x.Flag)),
            ("Take(3).Any(Rank > 2)", s => s.Take(3).Any(x => x.Rank > 2)),
            ("Skip(200).Any(Flag)", s => s.Skip(200).Any(x => x.Flag)),
            ("Skip(5).First()", s => s.Skip(5).First().Id!.ToLowerInvariant()),
            ("OrderBy(Price).Skip(5).FirstOrDefault()", s => s.OrderBy(x => x.Price).Skip(5).FirstOrDefault()?.Id!.ToLowerInvariant()),
            ("Take(1).Single()", s => s.Take(1).Single().Id!.ToLowerInvariant()),
            ("ElementAt(3)", s => s.ElementAt(3).Id!.ToLowerInvariant()),
            ("ElementAtOrDefault(1000)", s => s.ElementAtOrDefault(1000)?.Id),
            ("OrderBy(Rank).Last()", s => s.OrderBy(x => x.Rank).Last().Id!.ToLowerInvariant()),
            ("OrderBy(Rank).LastOrDefault(Flag)", s => s.OrderBy(x => x.Rank).LastOrDefault(x => x.Flag)?.Id!.ToLowerInvariant()),
            ("Where(Rank > 0).Where(Flag).Count()", s => s.Where(x => x.Rank > 0).Where(x => x.Flag).Count()),
            ("Take(5).Select(Rank).Distinct().Count()", s => s.Take(5).Select(x => x.Rank).Distinct().Count()),
            ("Skip(5).Take(10).LongCount()", s => s.Skip(5).Take(10).LongCount()),
            ("Skip(5).Take(10).Sum(Price)", s => s.Skip(5).Take(10).Sum(x => x.Price).ToString("0.#####", System.Globalization.CultureInfo.InvariantCulture)),
            ("OrderByDescending(At).Take(4).Max(At)", s => s.OrderByDescending(x => x.At).Take(4).Max(x => x.At).Ticks),
            ("Contains(item)", s => s.Select(x => x.Rank).Contains(3)),
        };
        var tally = new Tally();
        using var session = Store.OpenSession();
        foreach (var (name, call) in calls)
        {
            tally.Outcomes(name, Outcome(() => call(Items.AsQueryable())),
                () => Outcome(() => call(session.Query<Item>().WaitForNonStaleResults(TimeSpan.FromMinutes(2)))));
        }
        tally.AssertNoneWrong(minimumRight: calls.Count / 2);
    }

    /// <summary>
    /// Typed facets on enum, bool, nullable and array members (counts per value and the matches without one), and
    /// ranges whose boundaries fall on stored values (decimals of other scales, -0.0, unspecified and offset times),
    /// under every condition: the counts LINQ to Objects gives.
    /// </summary>
    [Fact]
    public void Typed_facets_count_as_LINQ_to_Objects()
    {
        var wrong = new List<string>();
        using var session = Store.OpenSession();
        var h8 = new DateTime(2020, 1, 1, 8, 0, 0, DateTimeKind.Utc);
        var h9 = new DateTime(2020, 1, 1, 9, 0, 0, DateTimeKind.Unspecified);
        var when = new DateTimeOffset(2020, 1, 1, 11, 0, 0, TimeSpan.FromHours(2));
        foreach (var (conditionName, predicate) in Conditions())
        {
            var matches = Items.Where(predicate.Compile()).ToList();
            IQueryable<Item> q = session.Query<Item>().WaitForNonStaleResults(TimeSpan.FromMinutes(2));
            q = q.Where(predicate);
            var results = q.AggregateBy(x => x.Grade)
                .AndAggregateBy(x => x.MaybeGrade)
                .AndAggregateBy(x => x.Flag)
                .AndAggregateBy(x => x.Score)
                .AndAggregateBy(x => x.Tags)
                .AndAggregateByRanges(x => x.Price, 0m, 1.50m, 10m)
                .AndAggregateByRanges(x => x.Weight, -0.0, 0.5, 1.0)
                .AndAggregateByRanges(x => x.At, h8, h9)
                .AndAggregateByRanges(x => x.When, when)
                .AndAggregateByRanges(x => x.Tip, 0m, 2.25m)
                .Execute();
            static string Values(FacetResult r) => string.Join(",", r.Values.Select(v => $"{v.Value}={v.Count}").Order(StringComparer.Ordinal)) + $";missing={r.Missing}";
            string Counts(Func<Item, string?> key) =>
                string.Join(",", matches.Where(x => key(x) is not null).GroupBy(x => key(x)!).Select(g => $"{g.Key}={g.Count()}").Order(StringComparer.Ordinal))
                + $";missing={matches.Count(x => key(x) is null)}";
            static string Ranges(FacetResult r) => string.Join(",", r.Values.Select(v => v.Count));
            string Expected<TValue>(Func<Item, TValue?> value, TValue[] bounds, Func<TValue, TValue, int> compare) where TValue : struct
            {
                var counts = new List<int>();
                for (var i = 0; i <= bounds.Length; i++)
                    counts.Add(matches.Count(x => value(x) is { } v && (i == 0 || compare(v, bounds[i - 1]) >= 0) && (i == bounds.Length || compare(v, bounds[i]) < 0)));
                return string.Join(",", counts);
            }
            var checks = new (string Name, string Got, string Expected)[]
            {
                ("Grade", Values(results[0]), Counts(x => ((int)x.Grade).ToString(System.Globalization.CultureInfo.InvariantCulture))),
                ("MaybeGrade", Values(results[1]), Counts(x => x.MaybeGrade is { } g ? ((int)g).ToString(System.Globalization.CultureInfo.InvariantCulture) : null)),
                ("Flag", Values(results[2]), Counts(x => x.Flag ? "true" : "false")),
                ("Score", Values(results[3]), Counts(x => x.Score?.ToString(System.Globalization.CultureInfo.InvariantCulture))),
                ("Tags", string.Join(",", results[4].Values.Select(v => $"{v.Value}={v.Count}").Order(StringComparer.Ordinal)),
                    string.Join(",", matches.SelectMany(x => x.Tags.Distinct()).GroupBy(t => t).Select(g => $"{g.Key}={g.Count()}").Order(StringComparer.Ordinal))),
                ("Price ranges", Ranges(results[5]), Expected(x => (decimal?)x.Price, [0m, 1.50m, 10m], decimal.Compare)),
                ("Weight ranges", Ranges(results[6]), Expected(x => (double?)x.Weight, [-0.0, 0.5, 1.0], (a, b) => a.CompareTo(b) == 0 || a == b ? 0 : a.CompareTo(b))),
                ("At ranges", Ranges(results[7]), Expected(x => (DateTime?)x.At, [h8, h9], (a, b) => a.Ticks.CompareTo(b.Ticks))),
                ("When ranges", Ranges(results[8]), Expected(x => (DateTimeOffset?)x.When, [when], (a, b) => a.CompareTo(b))),
                ("Tip ranges", Ranges(results[9]), Expected(x => x.Tip, [0m, 2.25m], decimal.Compare)),
            };
            foreach (var (name, got, expected) in checks)
            {
                if (got != expected)
                    wrong.Add($"Where[{conditionName}] {name}: expected {expected}, got {got}");
            }
        }
        Assert.True(wrong.Count == 0, string.Join("\n", wrong));
    }

    private static string Ids(IQueryable<Item> items) => string.Join(",", items.ToList().Select(x => x.Id!.ToLowerInvariant()));

    /// <summary>
    /// The shapes of one test: each answered right, answered wrong (or with another exception: a wrong answer too), or
    /// refused with <see cref="NotSupportedException"/>.
    /// </summary>
    private sealed class Tally
    {
        private readonly List<string> _wrong = [];
        private readonly List<string> _refused = [];
        private int _right;

        /// <summary>Runs <paramref name="got"/> and counts it against <paramref name="expected"/>.</summary>
        public void Check<T>(string name, T expected, Func<T> got, Func<T, T, bool> equal, Func<T, string> describe)
        {
            try
            {
                var answer = got();
                if (equal(answer, expected))
                    _right++;
                else
                    _wrong.Add($"{name}: expected {describe(expected)}, got {describe(answer)}");
            }
            catch (NotSupportedException e)
            {
                _refused.Add($"{name}: {e.Message[..Math.Min(100, e.Message.Length)]}");
            }
            catch (Exception e)
            {
                _wrong.Add($"{name}: expected {describe(expected)}, threw {e.GetType().Name}: {e.Message[..Math.Min(200, e.Message.Length)]}");
            }
        }

        /// <summary><see cref="Check{T}"/> of two <see cref="Outcome"/>s, doubles equal within <see cref="Close"/>.</summary>
        public void Outcomes(string name, string expected, Func<string> got) =>
            Check(name, expected, got, (answer, wanted) => answer == wanted || Close(answer, wanted), outcome => outcome);

        public void AssertNoneWrong(int minimumRight)
        {
            Assert.True(_wrong.Count == 0, $"{_wrong.Count} wrong:\n" + string.Join("\n", _wrong) + "\nrefused:\n" + string.Join("\n", _refused));
            Assert.True(_right >= minimumRight, $"only {_right} answered; refused:\n" + string.Join("\n", _refused));
        }
    }

    /// <summary>Double sums and averages add in another order: equal within 1e-12 relative.</summary>
    private static bool Close(string got, string expected)
    {
        static double? Parse(string text) => text.StartsWith("double ", StringComparison.Ordinal)
            ? double.Parse(text[7..], System.Globalization.CultureInfo.InvariantCulture) : null;
        return Parse(got) is { } a && Parse(expected) is { } b && Math.Abs(a - b) <= 1e-12 * Math.Max(1, Math.Max(Math.Abs(a), Math.Abs(b)));
    }

    /// <summary>Distinct projections, alone, counted, ordered and paged: as LINQ to Objects over the items in storage order.</summary>
    [Fact]
    public void Distinct_projections_with_paging_match_LINQ_to_Objects()
    {
        var tally = new Tally();
        using var session = Store.OpenSession();
        foreach (var (conditionName, predicate) in Conditions())
        {
            IQueryable<Item> q = session.Query<Item>().WaitForNonStaleResults(TimeSpan.FromMinutes(2));
            q = q.Where(predicate);
            var o = Items.AsQueryable().Where(predicate);
            var calls = new List<(string, Func<IQueryable<Item>, IEnumerable<string>>)>
            {
                ("Select(Grade).Distinct", s => s.Select(x => x.Grade).Distinct().ToList().Select(v => v.ToString())),
                ("Select(Score).Distinct", s => s.Select(x => x.Score).Distinct().ToList().Select(v => $"{v}")),
                ("Select(Name).Distinct", s => s.Select(x => x.Name).Distinct().ToList().Select(v => v ?? "<null>")),
                ("Select(Price).Distinct", s => s.Select(x => x.Price).Distinct().ToList().Select(v => v.ToString("0.############################", System.Globalization.CultureInfo.InvariantCulture))),
                ("Select(Grade).Distinct.Count", s => [s.Select(x => x.Grade).Distinct().Count().ToString(System.Globalization.CultureInfo.InvariantCulture)]),
                ("Select(Score).Distinct.Skip(1).Take(2)", s => s.Select(x => x.Score).Distinct().Skip(1).Take(2).ToList().Select(v => $"{v}")),
                ("Select(Rank).Distinct.OrderBy", s => s.Select(x => x.Rank).Distinct().OrderBy(v => v).ToList().Select(v => $"{v}")),
                ("Select(Rank).Distinct.OrderByDescending.Take(2)", s => s.Select(x => x.Rank).Distinct().OrderByDescending(v => v).Take(2).ToList().Select(v => $"{v}")),
                ("Select(new { Grade, Flag }).Distinct", s => s.Select(x => new { x.Grade, x.Flag }).Distinct().ToList().Select(v => $"{v}")),
                ("Select(new { Grade, Flag }).Distinct.Count", s => [s.Select(x => new { x.Grade, x.Flag }).Distinct().Count().ToString(System.Globalization.CultureInfo.InvariantCulture)]),
                ("OrderBy(Rank).Select(Grade).Distinct", s => s.OrderBy(x => x.Rank).Select(x => x.Grade).Distinct().ToList().Select(v => $"{v}")),
                ("OrderBy(Rank).Take(20).Select(Grade).Distinct", s => s.OrderBy(x => x.Rank).Take(20).Select(x => x.Grade).Distinct().ToList().Select(v => $"{v}")),
                ("Skip(5).Select(Rank).Distinct", s => s.Skip(5).Select(x => x.Rank).Distinct().ToList().Select(v => $"{v}")),
                ("Select(Rank).Distinct.Skip(1)", s => s.Select(x => x.Rank).Distinct().Skip(1).ToList().Select(v => $"{v}")),
                ("Select(MaybeGrade).Distinct", s => s.Select(x => x.MaybeGrade).Distinct().ToList().Select(v => $"{v}")),
                ("Select(When).Distinct.Count", s => [s.Select(x => x.When).Distinct().Count().ToString(System.Globalization.CultureInfo.InvariantCulture)]),
            };
            foreach (var (callName, call) in calls)
            {
                tally.Check($"Where[{conditionName}].{callName}", call(o).ToList(), () => call(q).ToList(),
                    (got, expected) => got.SequenceEqual(expected), values => $"[{string.Join(", ", values)}]");
            }
        }
        tally.AssertNoneWrong(minimumRight: 100);
    }

    /// <summary>
    /// A walk in pages by continuation (<c>StartAfter</c>), sorted and unsorted, with updates, deletes and inserts
    /// between pages: every item that was neither written nor deleted during the walk comes exactly once and in the
    /// oracle's order, and nothing comes twice unless it was written during the walk.
    /// </summary>
    [Fact]
    public void Continuation_walks_across_writes_return_each_untouched_item_once_in_order()
    {
        var random = new Random(seed * 11 + 3);
        var wrong = new List<string>();
        string[] sorts = ["", "Rank", "-Price", "ShippedAt", "-When", "Name", "Name ordinal"];
        foreach (var sort in sorts)
        {
            var touched = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
            var seen = new List<string>();
            string? continuation = null;
            var pageSize = random.Next(20, 60);
            var pages = 0;
            while (true)
            {
                using var session = Store.OpenSession();
                IQueryable<Item> query = session.Query<Item>().Statistics(out var statistics).WaitForNonStaleResults(TimeSpan.FromMinutes(2));
                query = query.Where(x => x.Rank >= -1000);
                query = sort switch
                {
                    "Rank" => query.OrderBy(x => x.Rank),
                    "-Price" => query.OrderByDescending(x => x.Price),
                    "ShippedAt" => query.OrderBy(x => x.ShippedAt),
                    "-When" => query.OrderByDescending(x => x.When),
                    "Name" => query.OrderBy(x => x.Name),
                    "Name ordinal" => query.OrderBy(x => x.Name, StringComparer.Ordinal),
                    _ => query,
                };
                if (continuation is not null)
                    query = ((RavenQuery<Item>)query).StartAfter(continuation);
                var page = query.Take(pageSize).ToList();
                seen.AddRange(page.Select(x => x.Id!.ToLowerInvariant()));
                continuation = statistics.Continuation;
                if (continuation is null || ++pages > 200)
                    break;
                Write(random, touched);
            }
            // The oracle's order over what is stored now, restricted to untouched items.
            using (var check = Store.OpenSession())
            {
                var untouchedExpected = Sort(Items, sort).Select(x => x.Id!.ToLowerInvariant()).Where(id => !touched.Contains(id)).ToList();
                var untouchedSeen = seen.Where(id => !touched.Contains(id)).ToList();
                if (!untouchedSeen.SequenceEqual(untouchedExpected))
                    wrong.Add($"sort '{sort}', page {pageSize}: {untouchedExpected.Count} untouched expected, {untouchedSeen.Count} seen, first difference at {untouchedSeen.Zip(untouchedExpected).TakeWhile(p => p.First == p.Second).Count()}");
                var twice = seen.GroupBy(id => id).Where(g => g.Count() > 1 && !touched.Contains(g.Key)).Select(g => g.Key).ToList();
                if (twice.Count > 0)
                    wrong.Add($"sort '{sort}': untouched seen twice: {string.Join(", ", twice.Take(5))}");
            }
        }
        Assert.True(wrong.Count == 0, string.Join("\n", wrong));
    }

    private static IEnumerable<Item> Sort(IEnumerable<Item> items, string sort) => sort switch
    {
        "Rank" => items.OrderBy(x => x.Rank),
        "-Price" => items.OrderByDescending(x => x.Price),
        "ShippedAt" => items.OrderBy(x => x.ShippedAt),
        "-When" => items.OrderByDescending(x => x.When),
        "Name" => items.OrderBy(x => x.Name),
        "Name ordinal" => items.OrderBy(x => x.Name, StringComparer.Ordinal),
        _ => items,
    };

    /// <summary>Updates, deletes or inserts a few items (also in the oracle, which keeps storage order: a written item moves to the end).</summary>
    private void Write(Random random, HashSet<string> touched)
    {
        using var session = Store.OpenSession();
        for (var n = random.Next(1, 4); n > 0; n--)
        {
            switch (random.Next(3))
            {
                case 0 when Items.Count > 10:
                    {
                        var victim = Items[random.Next(Items.Count)];
                        var loaded = session.Load<Item>(victim.Id!)!;
                        var fresh = NewItem(random);
                        fresh.Id = loaded.Id;
                        Copy(fresh, loaded);
                        Items.Remove(victim);
                        touched.Add(victim.Id!);
                        session.SaveChanges();
                        Items.Add(Clone(loaded));
                        break;
                    }
                case 1 when Items.Count > 10:
                    {
                        var victim = Items[random.Next(Items.Count)];
                        session.Delete(victim.Id!);
                        session.SaveChanges();
                        Items.Remove(victim);
                        touched.Add(victim.Id!);
                        break;
                    }
                default:
                    {
                        var fresh = NewItem(random);
                        session.Store(fresh);
                        session.SaveChanges();
                        Items.Add(Clone(fresh));
                        touched.Add(fresh.Id!);
                        break;
                    }
            }
        }
    }

    private static void Copy(Item from, Item to)
    {
        foreach (var property in typeof(Item).GetProperties().Where(p => p.Name != nameof(Item.Id)))
            property.SetValue(to, property.GetValue(from));
    }
}

public sealed class EmbeddedShapeDifferentialTests() : ShapeDifferentialTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()), seed: 41);

public sealed class RemoteShapeDifferentialTests() : ShapeDifferentialTests(async () => await RemoteStoreFixture.StartAsync(), seed: 4141);
