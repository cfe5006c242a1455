using System.Linq.Expressions;
using System.Reflection;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

/// <summary>One group's result as the generated projections fill it (members a shape does not bind stay default on both sides).</summary>
public sealed class GroupRow
{
    public object? K1 { get; set; }
    public object? K2 { get; set; }
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
    public int Refused { get; set; }
}

/// <summary>
/// GroupBy shapes generated at random (key x aggregates x filter, order, paging and terminal operator after Select), each
/// run by the auto map/reduce index and by LINQ to Objects over the same orders: every shape is answered exactly as
/// LINQ to Objects answers it (as a set where nothing orders it; double sums and averages within 1e-12 relative, as
/// they are added in another order) or refused with <see cref="NotSupportedException"/>. Then updates that move orders
/// between groups and deletes that empty a group, and the shapes again.
/// </summary>
public abstract class GroupByDifferentialTests(Func<Task<StoreFixture>> start) : IAsyncLifetime
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

    private static GroupOrder NewOrder(Random random) => new()
    {
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

    /// <summary>Group keys as users write them: members, a nested member, nullable and enum members, anonymous composites.</summary>
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

    /// <summary>Aggregates the index cannot compute exactly: each must be refused.</summary>
    private static readonly (string Member, string Method, LambdaExpression Selector)[] Untranslatable =
    [
        ("Refused", "Sum", (Expression<Func<GroupOrder, int>>)(x => x.Quantity * 2)),
        ("Refused", "Max", (Expression<Func<GroupOrder, int>>)(x => x.Customer!.Length)),
        ("Refused", "Count", (Expression<Func<GroupOrder, bool>>)(x => x.Rush)),
    ];

    private sealed record Shape(string Name, LambdaExpression Key, LambdaExpression Projection, Func<IQueryable<GroupRow>, object> After, bool Ordered, bool ExpectRefusal);

    private static List<Shape> Shapes(Random random, int count)
    {
        var shapes = new List<Shape>();
        for (var i = 0; i < count; i++)
        {
            var key = Keys[random.Next(Keys.Length)];
            var group = Expression.Parameter(typeof(IGrouping<,>).MakeGenericType(key.ReturnType, typeof(GroupOrder)), "g");
            var groupKey = Expression.Property(group, "Key");
            var bindings = new List<MemberBinding>();
            var names = new List<string>();
            if (key.Body is NewExpression composite)
            {
                var members = composite.Type.GetProperties();
                bindings.Add(Bind("K1", Expression.Property(groupKey, members[0])));
                bindings.Add(Bind("K2", Expression.Property(groupKey, members[1])));
                if (random.Next(3) == 0)
                    bindings.Add(Bind("KeyObject", groupKey));
                names.Add($"key {key}");
            }
            else
            {
                bindings.Add(Bind("K1", groupKey));
                names.Add($"key {key}");
            }
            foreach (var (member, method, selector) in Aggregates.OrderBy(_ => random.Next()).Take(random.Next(1, 6)))
            {
                bindings.Add(Bind(member, selector is null
                    ? Expression.Call(typeof(Enumerable), method, [typeof(GroupOrder)], group)
                    : Expression.Call(typeof(Enumerable), method, [typeof(GroupOrder)], group, selector)));
                names.Add($"{member}");
            }
            var refused = random.Next(8) == 0;
            if (refused)
            {
                var (member, method, selector) = Untranslatable[random.Next(Untranslatable.Length)];
                bindings.Add(Bind(member, Expression.Call(typeof(Enumerable), method, [typeof(GroupOrder)], group, selector)));
                names.Add($"{method}({selector})");
            }
            var projection = Expression.Lambda(Expression.MemberInit(Expression.New(typeof(GroupRow)), bindings), group);
            var (after, ordered, description) = After(random);
            shapes.Add(new Shape($"#{i}: {string.Join(", ", names)}; {description}", key, projection, after, ordered, refused));
        }
        return shapes;
    }

    private static MemberAssignment Bind(string member, Expression value)
    {
        var property = typeof(GroupRow).GetProperty(member)!;
        return Expression.Bind(property, value.Type == property.PropertyType ? value : Expression.Convert(value, property.PropertyType));
    }

    /// <summary>What runs after Select: a filter, an order that is total (ties broken by the key), paging, and a terminal operator.</summary>
    private static (Func<IQueryable<GroupRow>, object> After, bool Ordered, string Description) After(Random random)
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
                1 => rows.OrderByDescending(r => r.Count).ThenBy(r => r.K1).ThenBy(r => r.K2),
                2 => rows.OrderBy(r => r.SumTotal).ThenByDescending(r => r.K1).ThenBy(r => r.K2),
                _ => rows,
            };
            return paged ? rows.Skip(skip).Take(take) : rows;
        }
        object Run(IQueryable<GroupRow> rows) => (terminal, order > 0) switch
        {
            (1, _) => Shaped(rows).Count(),
            (2, true) => Shaped(rows).FirstOrDefault() ?? (object)"none",
            (3, true) => Shaped(rows).Select(r => new { r.K1, r.Count }).ToList(),
            _ => Shaped(rows).ToList(),
        };
        return (Run, order > 0, $"filter {filter}, order {order}, {(paged ? $"skip {skip} take {take}" : "all")}, terminal {terminal}");
    }

    [Fact]
    public void Generated_GroupBy_shapes_answer_as_LINQ_to_Objects_or_are_refused_also_after_updates_and_deletes()
    {
        var random = new Random(3101);
        var (answered, refused) = RunShapes(Shapes(random, 40));
        Assert.True(answered >= 25, $"only {answered} shapes answered");
        Assert.True(refused > 0, "no untranslatable shape was generated");

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
        var after = RunShapes(Shapes(random, 20));
        Assert.True(after.Answered >= 12, $"only {after.Answered} shapes answered after the updates");
        using var reader = _store.OpenSession();
        var customers = reader.Query<GroupOrder>().WaitForNonStaleResults(TimeSpan.FromMinutes(5)).GroupBy(x => x.Customer).Select(g => new { g.Key, N = g.Count() }).ToList();
        Assert.DoesNotContain(customers, c => c.Key == "customer-07");
        Assert.Equal(_orders.Count, customers.Sum(c => c.N));
    }

    private (int Answered, int Refused) RunShapes(List<Shape> shapes)
    {
        var answered = 0;
        var refused = 0;
        var wrong = new List<string>();
        foreach (var shape in shapes)
        {
            var expected = shape.ExpectRefusal ? null : shape.After(Build(_orders.AsQueryable(), shape));
            object actual;
            try
            {
                using var session = _store.OpenSession();
                // Each new shape is a new index over the whole collection, built by the one indexing thread beside the others.
                actual = shape.After(Build(session.Query<GroupOrder>().WaitForNonStaleResults(TimeSpan.FromMinutes(5)), shape));
            }
            catch (NotSupportedException)
            {
                refused++;
                continue;
            }
            if (shape.ExpectRefusal)
            {
                wrong.Add($"{shape.Name}: answered, but the index cannot compute it");
                continue;
            }
            answered++;
            if (Difference(expected, actual, shape.Ordered) is { } difference)
                wrong.Add($"{shape.Name}: {difference}");
        }
        Assert.True(wrong.Count == 0, $"{wrong.Count} wrong answers:\n{string.Join('\n', wrong.Take(10))}");
        return (answered, refused);
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

    private static string Identity(object row) => row is GroupRow r ? $"{r.K1}\u0001{r.K1 is null}\u0001{r.K2}\u0001{r.K2 is null}" : Describe(row);

    private static bool Same(object? expected, object? actual)
    {
        if (expected is GroupRow left && actual is GroupRow right)
            return typeof(GroupRow).GetProperties().All(property => Same(property.GetValue(left), property.GetValue(right)));
        if (expected is double x && actual is double y)
            return x == y || Math.Abs(x - y) <= 1e-12 * Math.Max(Math.Abs(x), Math.Abs(y));
        return Equals(expected, actual);
    }

    private static string Describe(object? value) => value is GroupRow row
        ? string.Join(", ", typeof(GroupRow).GetProperties().Select(p => $"{p.Name}={p.GetValue(row)}"))
        : value?.ToString() ?? "null";
}

public sealed class EmbeddedGroupByDifferentialTests() : GroupByDifferentialTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()));

public sealed class RemoteGroupByDifferentialTests() : GroupByDifferentialTests(async () => await RemoteStoreFixture.StartAsync());
