using System.Linq.Expressions;
using System.Reflection;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

/// <summary>One group's result as the generated projections fill it (members a shape does not bind stay default on both sides).</summary>
public sealed class GroupRow
{
    public object? K1 { get; set; }
    public object? K2 { get; set; }
    public object? K3 { get; set; }
    public object? KeyObject { get; set; }
    public int Count { get; set; }
    public long LongCount { get; set; }
    public int SumQuantity { get; set; }
    public int MinQuantity { get; set; }
    public int MaxQuantity { get; set; }
    public double AvgQuantity { get; set; }
    public long SumPoints { get; set; }
    public long MaxPoints { get; set; }
    public double AvgPoints { get; set; }
    public decimal SumTotal { get; set; }
    public decimal MinTotal { get; set; }
    public decimal MaxTotal { get; set; }
    public decimal AvgTotal { get; set; }
    public double SumWeight { get; set; }
    public double MinWeight { get; set; }
    public double AvgWeight { get; set; }
    public int? SumDiscount { get; set; }
    public int? MinDiscount { get; set; }
    public double? AvgDiscount { get; set; }
    public decimal? SumTip { get; set; }
    public decimal? MaxTip { get; set; }
    public decimal? AvgTip { get; set; }
    public int SumDoubled { get; set; }
    public int MaxLength { get; set; }
    public int CountRush { get; set; }
    public decimal AvgTotalWithTip { get; set; }
    public DateTime MaxPlacedAt { get; set; }
    public DateTimeOffset? MinPaidAt { get; set; }
    public long FirstPoints { get; set; }
    public int Refused { get; set; }
}

/// <summary>
/// GroupBy shapes generated at random (what comes before GroupBy x key x aggregates x filter, order, paging and terminal
/// operator after Select, sync or async), each run by the store (the auto map/reduce index, or the query's matches
/// grouped in the client) and by LINQ to Objects over the same orders: every shape is answered exactly as LINQ to
/// Objects answers it (as a set where nothing orders it; double sums and averages within 1e-12 relative, as they are
/// added in another order), throws the exception LINQ to Objects throws, or is refused with
/// <see cref="NotSupportedException"/>. Then updates that move orders between groups and deletes that empty a group,
/// and the shapes again.
/// </summary>
public abstract class GroupByDifferentialTests(Func<Task<StoreFixture>> start, Xunit.Abstractions.ITestOutputHelper output) : IAsyncLifetime
{
    private const int OrderCount = 2500;
    private StoreFixture _fixture = null!;
    private RavenStore _store = null!;
    private List<GroupOrder> _orders = null!;

    public async Task InitializeAsync()
    {
        _fixture = await start();
        _store = _fixture.OpenAnotherStore(new StoreConventions { MaxNumberOfRequestsPerSession = 100_000 });
        _orders = Generate(new Random(31), OrderCount);
        foreach (var batch in _orders.Chunk(500))
        {
            using var session = _store.OpenSession();
            foreach (var order in batch)
                session.Store(order);
            session.SaveChanges();
        }
    }

    public async Task DisposeAsync()
    {
        _store.Dispose();
        await _fixture.DisposeAsync();
    }

    private static readonly string[] Cities = ["Oslo", "Bergen", "Trondheim", "Tromsø", "Ålesund", "Bodø", "Molde", "Narvik", "Hamar", "Skien"];

    private static List<GroupOrder> Generate(Random random, int count) =>
        [.. Enumerable.Range(0, count).Select(_ => NewOrder(random))];

    /// <summary>Doubles LINQ groups by double.Equals: -0.0 with 0.0, NaN with NaN; extremes and a sum that is not 0.3.</summary>
    private static readonly double[] Rates =
        [0.0, -0.0, double.NaN, 1.5, -1.5, double.MaxValue, double.MinValue, double.Epsilon, 1e-300, 0.1, 0.30000000000000004, double.PositiveInfinity];

    /// <summary>Decimals LINQ groups by value: 1, 1.0 and 1.00 are one group, as are 2.5 and 2.50.</summary>
    private static readonly decimal[] Prices = [1m, 1.0m, 1.00m, 2.5m, 2.50m, 0m, 0.000m, -7.125m, decimal.MaxValue, decimal.MinValue, 0.0000000000000000000000000001m];

    /// <summary>Instants with and without fractions; the same ticks in another Kind are one DateTime group.</summary>
    private static readonly DateTime[] Instants =
    [
        DateTime.SpecifyKind(DateTime.MinValue, DateTimeKind.Utc), // first: never an offset's instant (PaidAt skips it)
        new(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc), new(2020, 1, 1, 8, 0, 0, 123, DateTimeKind.Utc), new DateTime(2021, 6, 30, 23, 59, 59, DateTimeKind.Utc).AddTicks(1234567),
        new(2021, 12, 31, 12, 0, 0, DateTimeKind.Utc), new(1999, 12, 31, 23, 59, 59, DateTimeKind.Utc), new(2024, 2, 29, 0, 0, 0, 5, DateTimeKind.Utc),
        new(2024, 7, 1, 10, 30, 0, DateTimeKind.Utc),
    ];

    private static readonly TimeSpan[] Offsets = [TimeSpan.Zero, TimeSpan.FromHours(2), TimeSpan.FromHours(-5), new TimeSpan(5, 30, 0), TimeSpan.FromHours(14)];

    private static GroupOrder NewOrder(Random random) => new()
    {
        Rate = Rates[random.Next(Rates.Length)],
        Price = random.Next(200) == 0 ? decimal.MaxValue : Prices[random.Next(Prices.Length - 2)],
        PlacedAt = random.Next(3) == 0 ? DateTime.SpecifyKind(Instants[random.Next(Instants.Length)], DateTimeKind.Unspecified) : Instants[random.Next(Instants.Length)],
        PaidAt = random.Next(5) == 0 ? null : PaidAt(Instants[random.Next(1, Instants.Length)], Offsets[random.Next(Offsets.Length)]),
        Customer = random.Next(40) switch { 0 => null, 1 => "", _ => $"customer-{random.Next(60):00}" },
        Status = (GroupStatus)random.Next(4),
        Rush = random.Next(2) == 0,
        Quantity = random.Next(-5, 100),
        Discount = random.Next(5) < 2 ? null : random.Next(0, 50),
        Points = random.NextInt64(0, 1_000_000_000_000),
        Total = Math.Round((decimal)random.NextDouble() * 1000, random.Next(0, 3)),
        Tip = random.Next(10) < 3 ? null : Math.Round((decimal)random.NextDouble() * 20, 2),
        Weight = Math.Round(random.NextDouble() * 100, 3),
        Address = new GroupAddress { City = random.Next(10) == 0 ? null : Cities[random.Next(Cities.Length)] },
    };

    /// <summary>The same instant seen from another offset: LINQ groups DateTimeOffset by instant.</summary>
    private static DateTimeOffset PaidAt(DateTime utc, TimeSpan offset) => new DateTimeOffset(utc).ToOffset(offset);

    /// <summary>Group keys as users write them: members, a nested member, nullable and enum members, anonymous composites,
    /// doubles, decimals and dates, and computed keys.</summary>
    private static readonly LambdaExpression[] Keys =
    [
        (Expression<Func<GroupOrder, string?>>)(x => x.Customer),
        (Expression<Func<GroupOrder, GroupStatus>>)(x => x.Status),
        (Expression<Func<GroupOrder, string?>>)(x => x.Address.City),
        (Expression<Func<GroupOrder, bool>>)(x => x.Rush),
        (Expression<Func<GroupOrder, int?>>)(x => x.Discount),
        Anonymous(x => new { x.Customer, x.Status }),
        Anonymous(x => new { x.Address.City, x.Rush }),
        Anonymous(x => new { x.Status, x.Rush, x.Discount }),
        (Expression<Func<GroupOrder, double>>)(x => x.Rate),
        (Expression<Func<GroupOrder, decimal>>)(x => x.Price),
        (Expression<Func<GroupOrder, DateTime>>)(x => x.PlacedAt),
        (Expression<Func<GroupOrder, DateTimeOffset?>>)(x => x.PaidAt),
        (Expression<Func<GroupOrder, int>>)(x => x.Quantity),
        (Expression<Func<GroupOrder, int>>)(x => x.PlacedAt.Year),
        (Expression<Func<GroupOrder, string?>>)(x => x.Customer == null ? null : x.Customer.ToLowerInvariant()),
        (Expression<Func<GroupOrder, string>>)(x => x.Address.City!.ToUpperInvariant()), // NullReferenceException where City is null, as in memory
        (Expression<Func<GroupOrder, bool>>)(x => x.Quantity > 50 && x.Discount != null),
        Anonymous(x => new { x.PlacedAt.Year, x.Rate }),
        Anonymous(x => new { x.Price, x.PaidAt }),
        (Expression<Func<GroupOrder, long>>)(x => x.Points), // a group per order: thousands of groups, read in pages
        Anonymous(x => new { x.Points, x.Rate }),
    ];

    /// <summary>Conditions before GroupBy, as the LINQ provider translates them (each safe on every order in memory).</summary>
    private static readonly (string Name, Expression<Func<GroupOrder, bool>> Predicate)[] Filters =
    [
        ("Rush", x => x.Rush),
        ("!Rush", x => !x.Rush),
        ("Quantity > 40", x => x.Quantity > 40),
        ("Customer == customer-13", x => x.Customer == "customer-13"),
        ("Customer != null", x => x.Customer != null),
        ("Total >= 500.5", x => x.Total >= 500.5m),
        ("Status Paid || no Discount", x => x.Status == GroupStatus.Paid || x.Discount == null),
        ("Tip == null", x => x.Tip == null),
        ("City Oslo", x => x.Address.City == "Oslo"),
        ("PlacedAt >= 2021-06-30", x => x.PlacedAt >= new DateTime(2021, 6, 30, 0, 0, 0, DateTimeKind.Utc)),
        ("Points < 5e11 && Quantity != 0", x => x.Points < 500_000_000_000 && x.Quantity != 0),
        ("Customer StartsWith customer-0", x => x.Customer != null && x.Customer.StartsWith("customer-0")),
        ("nothing", x => x.Quantity > 1000),
    ];

    private static LambdaExpression Anonymous(Expression<Func<GroupOrder, object>> key) =>
        Expression.Lambda(key.Body is UnaryExpression convert ? convert.Operand : key.Body, key.Parameters);

    /// <summary>Aggregates: the GroupRow member, the Enumerable method, and the member it reads (null for counts).</summary>
    private static readonly (string Member, string Method, LambdaExpression? Selector)[] Aggregates =
    [
        ("Count", "Count", null),
        ("LongCount", "LongCount", null),
        ("SumQuantity", "Sum", (Expression<Func<GroupOrder, int>>)(x => x.Quantity)),
        ("MinQuantity", "Min", (Expression<Func<GroupOrder, int>>)(x => x.Quantity)),
        ("MaxQuantity", "Max", (Expression<Func<GroupOrder, int>>)(x => x.Quantity)),
        ("AvgQuantity", "Average", (Expression<Func<GroupOrder, int>>)(x => x.Quantity)),
        ("SumPoints", "Sum", (Expression<Func<GroupOrder, long>>)(x => x.Points)),
        ("MaxPoints", "Max", (Expression<Func<GroupOrder, long>>)(x => x.Points)),
        ("AvgPoints", "Average", (Expression<Func<GroupOrder, long>>)(x => x.Points)),
        ("SumTotal", "Sum", (Expression<Func<GroupOrder, decimal>>)(x => x.Total)),
        ("MinTotal", "Min", (Expression<Func<GroupOrder, decimal>>)(x => x.Total)),
        ("MaxTotal", "Max", (Expression<Func<GroupOrder, decimal>>)(x => x.Total)),
        ("AvgTotal", "Average", (Expression<Func<GroupOrder, decimal>>)(x => x.Total)),
        ("SumWeight", "Sum", (Expression<Func<GroupOrder, double>>)(x => x.Weight)),
        ("MinWeight", "Min", (Expression<Func<GroupOrder, double>>)(x => x.Weight)),
        ("AvgWeight", "Average", (Expression<Func<GroupOrder, double>>)(x => x.Weight)),
        ("SumDiscount", "Sum", (Expression<Func<GroupOrder, int?>>)(x => x.Discount)),
        ("MinDiscount", "Min", (Expression<Func<GroupOrder, int?>>)(x => x.Discount)),
        ("AvgDiscount", "Average", (Expression<Func<GroupOrder, int?>>)(x => x.Discount)),
        ("SumTip", "Sum", (Expression<Func<GroupOrder, decimal?>>)(x => x.Tip)),
        ("MaxTip", "Max", (Expression<Func<GroupOrder, decimal?>>)(x => x.Tip)),
        ("AvgTip", "Average", (Expression<Func<GroupOrder, decimal?>>)(x => x.Tip)),
    ];

    /// <summary>Aggregates the auto map/reduce index does not compute: the query's matches are grouped in the client.</summary>
    private static readonly (string Member, string Method, LambdaExpression? Selector)[] Computed =
    [
        ("SumDoubled", "Sum", (Expression<Func<GroupOrder, int>>)(x => x.Quantity * 2)),
        ("MaxLength", "Max", (Expression<Func<GroupOrder, int>>)(x => x.Customer == null ? -1 : x.Customer.Length)),
        ("CountRush", "Count", (Expression<Func<GroupOrder, bool>>)(x => x.Rush)),
        ("AvgTotalWithTip", "Average", (Expression<Func<GroupOrder, decimal>>)(x => x.Total + (x.Tip ?? 0))),
        ("MaxPlacedAt", "Max", (Expression<Func<GroupOrder, DateTime>>)(x => x.PlacedAt)),
        ("MinPaidAt", "Min", (Expression<Func<GroupOrder, DateTimeOffset?>>)(x => x.PaidAt)),
    ];

    /// <summary>A key that must be refused: a class without value equality groups by reference.</summary>
    private static readonly LambdaExpression ReferenceKey = (Expression<Func<GroupOrder, GroupAddress>>)(x => new GroupAddress { City = x.Customer });

    private sealed record Shape(string Name, Func<IQueryable<GroupOrder>, IQueryable<GroupOrder>> Before, LambdaExpression Key, LambdaExpression Projection,
        Func<IQueryable<GroupRow>, bool, Task<object>> After, bool Async, bool Ordered, bool ExpectRefusal)
    {
        public bool Filtered { get; init; }
    }

    private const string WholeCollection = "whole collection";
    private const string OrderedPage = "Where Quantity >= 0, OrderByDescending Points";

    /// <summary>How the shapes of a run ended: answered (of which after a filter, async, or LINQ's own exception) or refused.</summary>
    private sealed record Outcome(int Answered, int Refused, int Filtered, int Async, int Thrown);

    private static List<Shape> Shapes(Random random, int count)
    {
        var shapes = new List<Shape>();
        for (var i = 0; i < count; i++)
        {
            var refused = random.Next(12) == 0;
            var key = refused ? ReferenceKey : Keys[random.Next(Keys.Length)];
            var (before, beforeName) = Before(random);
            var group = Expression.Parameter(typeof(IGrouping<,>).MakeGenericType(key.ReturnType, typeof(GroupOrder)), "g");
            var groupKey = Expression.Property(group, "Key");
            var bindings = new List<MemberBinding>();
            var names = new List<string>();
            if (key.Body is NewExpression composite)
            {
                var members = composite.Type.GetProperties();
                bindings.Add(Bind("K1", Expression.Property(groupKey, members[0])));
                bindings.Add(Bind("K2", Expression.Property(groupKey, members[1])));
                // Every part of the key, so that ordering by K1, K2, K3 is total and each row has its own identity.
                if (members.Length > 2)
                    bindings.Add(Bind("K3", Expression.Property(groupKey, members[2])));
                if (random.Next(3) == 0)
                    bindings.Add(Bind("KeyObject", groupKey));
                names.Add($"key {key}");
            }
            else
            {
                bindings.Add(Bind("K1", groupKey));
                names.Add($"key {key}");
            }
            foreach (var (member, method, selector) in Aggregates.Concat(Computed).OrderBy(_ => random.Next()).Take(random.Next(1, 6)))
            {
                bindings.Add(Bind(member, selector is null
                    ? Expression.Call(typeof(Enumerable), method, [typeof(GroupOrder)], group)
                    : Call(method, group, selector)));
                names.Add($"{member}");
            }
            if (beforeName.StartsWith(OrderedPage, StringComparison.Ordinal) && random.Next(2) == 0)
            {
                // In a total order the group's first order is the same in memory and in the store.
                bindings.Add(Bind("FirstPoints", Expression.Property(Expression.Call(typeof(Enumerable), nameof(Enumerable.First), [typeof(GroupOrder)], group), "Points")));
                names.Add("FirstPoints");
            }
            var projection = Expression.Lambda(Expression.MemberInit(Expression.New(typeof(GroupRow)), bindings), group);
            var (after, ordered, description) = After(random);
            var async = random.Next(3) == 0;
            shapes.Add(new Shape($"#{i}: {beforeName}; {string.Join(", ", names)}; {description}{(async ? ", async" : "")}", before, key, projection, after, async, ordered, refused)
                { Filtered = beforeName != WholeCollection });
        }
        return shapes;
    }

    /// <summary>What runs before GroupBy: nothing (half the time), one or two conditions, or a total order and a page.</summary>
    private static (Func<IQueryable<GroupOrder>, IQueryable<GroupOrder>> Before, string Name) Before(Random random)
    {
        switch (random.Next(8))
        {
            case < 4:
                return (source => source, WholeCollection);
            case < 6:
                var (name, predicate) = Filters[random.Next(Filters.Length)];
                return (source => source.Where(predicate), $"Where {name}");
            case 6:
                var (first, p1) = Filters[random.Next(Filters.Length)];
                var (second, p2) = Filters[random.Next(Filters.Length)];
                return (source => source.Where(p1).Where(p2), $"Where {first}, Where {second}");
            default:
                var take = random.Next(1, 400);
                // Points are distinct in the generated orders, so the order (and the page) is the same in memory and in the store.
                return (source => source.Where(x => x.Quantity >= 0).OrderByDescending(x => x.Points).Take(take), $"{OrderedPage}, Take {take}");
        }
    }

    /// <summary>Enumerable's overload for the selector's type: a numeric one, else the generic Min/Max (dates).</summary>
    private static MethodCallExpression Call(string method, Expression group, LambdaExpression selector)
    {
        var numeric = typeof(Enumerable).GetMethods().Any(m => m.Name == method && m.GetParameters() is [_, var p]
            && p.ParameterType.IsGenericType && p.ParameterType.GetGenericArguments()[^1] == selector.ReturnType);
        return numeric
            ? Expression.Call(typeof(Enumerable), method, [typeof(GroupOrder)], group, selector)
            : Expression.Call(typeof(Enumerable), method, [typeof(GroupOrder), selector.ReturnType], group, selector);
    }

    private static MemberAssignment Bind(string member, Expression value)
    {
        var property = typeof(GroupRow).GetProperty(member)!;
        return Expression.Bind(property, value.Type == property.PropertyType ? value : Expression.Convert(value, property.PropertyType));
    }

    /// <summary>What runs after Select: a filter, an order that is total (ties broken by the key), paging, and a terminal operator, sync or async.</summary>
    private static (Func<IQueryable<GroupRow>, bool, Task<object>> After, bool Ordered, string Description) After(Random random)
    {
        var threshold = random.Next(1, 60);
        var money = random.Next(0, 30_000);
        var filter = random.Next(4);
        var order = random.Next(3);
        var skip = random.Next(0, 5);
        var take = random.Next(1, 20);
        var paged = order > 0 && random.Next(2) == 0;
        var terminal = random.Next(4);
        IQueryable<GroupRow> Shaped(IQueryable<GroupRow> rows)
        {
            rows = filter switch
            {
                1 => rows.Where(r => r.Count >= threshold),
                2 => rows.Where(r => r.SumTotal > money || r.K1 == null),
                3 => rows.Where(r => r.K1 != null),
                _ => rows,
            };
            rows = order switch
            {
                1 => rows.OrderByDescending(r => r.Count).ThenBy(r => r.K1).ThenBy(r => r.K2).ThenBy(r => r.K3),
                2 => rows.OrderBy(r => r.SumTotal).ThenByDescending(r => r.K1).ThenBy(r => r.K2).ThenBy(r => r.K3),
                _ => rows,
            };
            return paged ? rows.Skip(skip).Take(take) : rows;
        }
        async Task<object> Run(IQueryable<GroupRow> rows, bool async) => (terminal, order > 0, async) switch
        {
            (1, _, false) => Shaped(rows).Count(),
            (1, _, true) => await Shaped(rows).CountAsync(),
            (2, true, false) => Shaped(rows).FirstOrDefault() ?? (object)"none",
            (2, true, true) => await Shaped(rows).FirstOrDefaultAsync() ?? (object)"none",
            (3, true, false) => Shaped(rows).Select(r => new { r.K1, r.Count }).ToList(),
            (3, true, true) => await Shaped(rows).Select(r => new { r.K1, r.Count }).ToListAsync(),
            (_, _, false) => Shaped(rows).ToList(),
            (_, _, true) => await Shaped(rows).ToListAsync(),
        };
        return (Run, order > 0, $"filter {filter}, order {order}, {(paged ? $"skip {skip} take {take}" : "all")}, terminal {terminal}");
    }

    [Fact]
    public async Task Generated_GroupBy_shapes_answer_as_LINQ_to_Objects_or_are_refused_also_after_updates_and_deletes()
    {
        var random = new Random(3101);
        var first = await RunShapes(Shapes(random, ShapeCount));
        Assert.True(first.Answered >= ShapeCount * 3 / 4, $"only {first.Answered} shapes answered");
        Assert.True(first.Refused > 0, "no refused shape was generated");
        output.WriteLine($"before the updates: {first}");
        Assert.True(first.Filtered >= ShapeCount / 8 && first.Async >= ShapeCount / 8 && first.Thrown > 0, $"too few shapes of a kind: {first}");

        // Orders move between groups (customer, status, city, totals change), some are deleted, and one customer's
        // every order goes, so its group must vanish.
        using (var session = _store.OpenSession())
        {
            foreach (var order in _orders.OrderBy(_ => random.Next()).Take(400))
            {
                var stored = session.Load<GroupOrder>(order.Id!)!;
                var changed = NewOrder(random);
                stored.Customer = order.Customer = changed.Customer;
                stored.Status = order.Status = changed.Status;
                stored.Total = order.Total = changed.Total;
                stored.Discount = order.Discount = changed.Discount;
                stored.Address.City = order.Address.City = changed.Address.City;
            }
            var gone = _orders.Where(o => o.Customer == "customer-07").Concat(_orders.OrderBy(_ => random.Next()).Take(150)).Distinct().ToList();
            foreach (var order in gone)
                session.Delete(order.Id!);
            _orders = [.. _orders.Except(gone)];
            session.SaveChanges();
        }
        Assert.DoesNotContain(_orders, o => o.Customer == "customer-07");
        var after = await RunShapes(Shapes(random, ShapeCount / 2));
        output.WriteLine($"after the updates: {after}");
        Assert.True(after.Answered >= ShapeCount * 3 / 8, $"only {after.Answered} shapes answered after the updates");
        using var reader = _store.OpenSession();
        var customers = reader.Query<GroupOrder>().WaitForNonStaleResults(TimeSpan.FromMinutes(5)).GroupBy(x => x.Customer).Select(g => new { g.Key, N = g.Count() }).ToList();
        Assert.DoesNotContain(customers, c => c.Key == "customer-07");
        Assert.Equal(_orders.Count, customers.Sum(c => c.N));
    }

    /// <summary>Shapes per run (half as many again after the updates); GROUPBY_SHAPES raises it for a longer run.</summary>
    private static readonly int ShapeCount = int.TryParse(Environment.GetEnvironmentVariable("GROUPBY_SHAPES"), out var count) ? count : 80;

    private async Task<Outcome> RunShapes(List<Shape> shapes)
    {
        var answered = 0;
        var refused = 0;
        var filtered = 0;
        var async = 0;
        var thrown = 0;
        var wrong = new List<string>();
        foreach (var shape in shapes)
        {
            object? expected = null;
            Exception? expectedError = null;
            if (!shape.ExpectRefusal)
            {
                try
                {
                    expected = await shape.After(Build(shape.Before(_orders.AsQueryable()), shape), false);
                }
                catch (Exception error) when (error is InvalidOperationException or NullReferenceException or OverflowException)
                {
                    expectedError = error;
                }
            }
            object actual;
            try
            {
                using var session = _store.OpenSession();
                // Each new shape is a new index over the whole collection, built by the one indexing thread beside the others.
                actual = await shape.After(Build(shape.Before(session.Query<GroupOrder>().WaitForNonStaleResults(TimeSpan.FromMinutes(5))), shape), shape.Async);
            }
            catch (NotSupportedException refusal)
            {
                refused++;
                // Only the key LINQ would group by reference is refused; every other shape is answered.
                if (!shape.ExpectRefusal)
                    wrong.Add($"{shape.Name}: refused: {refusal.Message}");
                continue;
            }
            catch (Exception error) when (expectedError is not null && error.GetType() == expectedError.GetType())
            {
                answered++; // the exception LINQ to Objects throws for the same data
                thrown++;
                continue;
            }
            if (shape.ExpectRefusal)
            {
                wrong.Add($"{shape.Name}: answered, but it must be refused");
                continue;
            }
            answered++;
            filtered += shape.Filtered ? 1 : 0;
            async += shape.Async ? 1 : 0;
            if (expectedError is not null)
                wrong.Add($"{shape.Name}: answered, but LINQ to Objects throws {expectedError.GetType().Name}");
            else if (Difference(expected, actual, shape.Ordered) is { } difference)
                wrong.Add($"{shape.Name}: {difference}");
        }
        Assert.True(wrong.Count == 0, $"{wrong.Count} wrong answers of {shapes.Count}:\n{string.Join('\n', wrong.Take(10))}");
        return new Outcome(answered, refused, filtered, async, thrown);
    }

    private static IQueryable<GroupRow> Build(IQueryable<GroupOrder> source, Shape shape)
    {
        var grouped = source.Provider.CreateQuery(Expression.Call(typeof(Queryable), nameof(Queryable.GroupBy), [typeof(GroupOrder), shape.Key.ReturnType],
            source.Expression, Expression.Quote(shape.Key)));
        return grouped.Provider.CreateQuery<GroupRow>(Expression.Call(typeof(Queryable), nameof(Queryable.Select), [grouped.ElementType, typeof(GroupRow)],
            grouped.Expression, Expression.Quote(shape.Projection)));
    }

    private static string? Difference(object? expected, object? actual, bool ordered)
    {
        if (expected is System.Collections.IEnumerable expectedItems and not string && actual is System.Collections.IEnumerable actualItems and not string)
        {
            var left = expectedItems.Cast<object>().ToList();
            var right = actualItems.Cast<object>().ToList();
            if (left.Count != right.Count)
                return $"{right.Count} results, expected {left.Count}";
            if (!ordered)
            {
                left = [.. left.OrderBy(Identity, StringComparer.Ordinal)];
                right = [.. right.OrderBy(Identity, StringComparer.Ordinal)];
            }
            for (var i = 0; i < left.Count; i++)
            {
                if (!Same(left[i], right[i]))
                    return $"result {i}: {Describe(right[i])}, expected {Describe(left[i])}";
            }
            return null;
        }
        return Same(expected, actual) ? null : $"{Describe(actual)}, expected {Describe(expected)}";
    }

    /// <summary>A row's key as LINQ compares it: a group's key is its first document's, and documents come in another order.</summary>
    private static string Identity(object row) => row is GroupRow r ? $"{Key(r.K1)}\u0001{r.K1 is null}\u0001{Key(r.K2)}\u0001{r.K2 is null}\u0001{Key(r.K3)}\u0001{r.K3 is null}" : Describe(row);

    private static string? Key(object? value) => value switch
    {
        double d => (d == 0 ? 0d : d).ToString("R", System.Globalization.CultureInfo.InvariantCulture),
        decimal m => m.ToString("G29", System.Globalization.CultureInfo.InvariantCulture),
        DateTime t => t.Ticks.ToString(System.Globalization.CultureInfo.InvariantCulture),
        DateTimeOffset o => o.UtcTicks.ToString(System.Globalization.CultureInfo.InvariantCulture),
        _ => value?.ToString(),
    };

    private static bool Same(object? expected, object? actual)
    {
        if (expected is GroupRow left && actual is GroupRow right)
            return typeof(GroupRow).GetProperties().All(property => Same(property.GetValue(left), property.GetValue(right)));
        if (expected is double x && actual is double y)
            return x.Equals(y) || Math.Abs(x - y) <= 1e-12 * Math.Max(Math.Abs(x), Math.Abs(y));
        return Equals(expected, actual);
    }

    private static string Describe(object? value) => value is GroupRow row
        ? string.Join(", ", typeof(GroupRow).GetProperties().Select(p => $"{p.Name}={p.GetValue(row)}"))
        : value?.ToString() ?? "null";
}

public sealed class EmbeddedGroupByDifferentialTests(Xunit.Abstractions.ITestOutputHelper output)
    : GroupByDifferentialTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()), output);

public sealed class RemoteGroupByDifferentialTests(Xunit.Abstractions.ITestOutputHelper output)
    : GroupByDifferentialTests(async () => await RemoteStoreFixture.StartAsync(), output);
