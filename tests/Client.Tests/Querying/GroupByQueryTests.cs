using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

public enum GroupStatus { Open, Paid, Shipped, Cancelled }

public sealed class GroupAddress
{
    public string? City { get; set; }
}

public sealed class GroupOrder
{
    public string? Id { get; set; }
    public string? Customer { get; set; }
    public GroupStatus Status { get; set; }
    public bool Rush { get; set; }
    public int Quantity { get; set; }
    public int? Discount { get; set; }
    public long Points { get; set; }
    public decimal Total { get; set; }
    public decimal? Tip { get; set; }
    public double Weight { get; set; }
    public GroupAddress Address { get; set; } = new();
}

public sealed class CustomerSummary
{
    public string? Customer { get; set; }
    public int Orders { get; set; }
    public decimal Total { get; set; }
    public double AverageQuantity { get; set; }
}

/// <summary>LINQ GroupBy on a collection query, answered by an auto map/reduce index: hand-written shapes and refusals.</summary>
public abstract class GroupByQueryTests(Func<Task<StoreFixture>> start) : IAsyncLifetime
{
    private StoreFixture _fixture = null!;
    private RavenStore _store = null!;
    private readonly List<GroupOrder> _orders =
    [
        new() { Customer = "Bob", Status = GroupStatus.Paid, Quantity = 2, Discount = 5, Points = 10, Total = 10.50m, Tip = 1m, Weight = 1.5, Address = new() { City = "Oslo" } },
        new() { Customer = "Bob", Status = GroupStatus.Open, Quantity = 3, Points = 20, Total = 4.25m, Weight = 2.25, Address = new() { City = "Bergen" } },
        new() { Customer = "Alice", Status = GroupStatus.Paid, Quantity = 7, Discount = 10, Points = 5, Total = 100m, Tip = 2.5m, Weight = 0.1, Address = new() { City = "Oslo" } },
        new() { Customer = null, Status = GroupStatus.Paid, Quantity = 1, Points = 1, Total = 0.01m, Weight = 3, Address = new() { City = null } },
        new() { Customer = "", Status = GroupStatus.Shipped, Quantity = 4, Discount = 0, Points = 7, Total = 7m, Weight = 0.2, Address = new() { City = "Oslo" } },
    ];

    public async Task InitializeAsync()
    {
        _fixture = await start();
        _store = _fixture.OpenAnotherStore(new StoreConventions { MaxNumberOfRequestsPerSession = 10_000 });
        using var session = _store.OpenSession();
        foreach (var order in _orders)
            session.Store(order);
        session.SaveChanges();
    }

    public async Task DisposeAsync()
    {
        _store.Dispose();
        await _fixture.DisposeAsync();
    }

    [Fact]
    public void GroupBy_a_member_with_count_and_sum_equals_LINQ_to_Objects()
    {
        using var session = _store.OpenSession();

        var groups = session.Query<GroupOrder>().GroupBy(x => x.Customer)
            .Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(x => x.Total) }).ToList();

        var expected = _orders.GroupBy(x => x.Customer).Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(x => x.Total) });
        Assert.Equal(expected.OrderBy(g => g.Key, StringComparer.Ordinal), groups.OrderBy(g => g.Key, StringComparer.Ordinal));
        Assert.Contains(groups, g => g.Key is null && g.Count == 1);
        Assert.Contains(groups, g => g.Key == "" && g.Count == 1);
    }

    [Fact]
    public void GroupBy_a_composite_key_reads_its_members_and_every_aggregate()
    {
        using var session = _store.OpenSession();

        var groups = session.Query<GroupOrder>().GroupBy(x => new { x.Customer, x.Status })
            .Select(g => new
            {
                g.Key.Customer, g.Key.Status, N = g.LongCount(), MinQ = g.Min(x => x.Quantity), MaxTotal = g.Max(x => x.Total),
                AvgQ = g.Average(x => x.Quantity), AvgDiscount = g.Average(x => x.Discount), SumDiscount = g.Sum(x => x.Discount),
                MaxTip = g.Max(x => x.Tip), Points = g.Sum(x => x.Points), Weight = g.Max(x => x.Weight), AvgTotal = g.Average(x => x.Total), g.Key,
            })
            .OrderBy(g => g.Customer).ThenBy(g => g.Status).ToList();

        var expected = _orders.GroupBy(x => new { x.Customer, x.Status })
            .Select(g => new
            {
                g.Key.Customer, g.Key.Status, N = g.LongCount(), MinQ = g.Min(x => x.Quantity), MaxTotal = g.Max(x => x.Total),
                AvgQ = g.Average(x => x.Quantity), AvgDiscount = g.Average(x => x.Discount), SumDiscount = g.Sum(x => x.Discount),
                MaxTip = g.Max(x => x.Tip), Points = g.Sum(x => x.Points), Weight = g.Max(x => x.Weight), AvgTotal = g.Average(x => x.Total), g.Key,
            })
            .OrderBy(g => g.Customer).ThenBy(g => g.Status).ToList();
        Assert.Equal(expected, groups);
    }

    [Fact]
    public void GroupBy_a_nested_member_projects_into_a_named_class_and_pages_after_ordering()
    {
        using var session = _store.OpenSession();

        var cities = session.Query<GroupOrder>().GroupBy(x => x.Address.City)
            .Select(g => new CustomerSummary { Customer = g.Key, Orders = g.Count(), Total = g.Sum(x => x.Total), AverageQuantity = g.Average(x => x.Quantity) })
            .Where(s => s.Orders >= 1).OrderByDescending(s => s.Orders).ThenBy(s => s.Customer).Skip(2).Take(1).ToList(); // Oslo (3), then null and Bergen (1 each; null first)

        var summary = Assert.Single(cities);
        Assert.Equal("Bergen", summary.Customer);
        Assert.Equal(4.25m, summary.Total);
        Assert.Equal(3d, summary.AverageQuantity);
    }

    [Fact]
    public void Terminal_operators_after_Select_run_on_the_groups()
    {
        using var session = _store.OpenSession();
        var groups = session.Query<GroupOrder>().GroupBy(x => x.Status).Select(g => new { Status = g.Key, Count = g.Count() });

        Assert.Equal(3, groups.Count());
        Assert.Equal(GroupStatus.Paid, groups.OrderByDescending(g => g.Count).First().Status);
        Assert.Null(groups.FirstOrDefault(g => g.Count > 10));
        Assert.Throws<InvalidOperationException>(() => groups.First(g => g.Count > 10));
    }

    [Fact]
    public void The_same_shape_reuses_one_auto_map_reduce_index_and_a_deleted_one_is_made_again()
    {
        using (var session = _store.OpenSession())
        {
            _ = session.Query<GroupOrder>().GroupBy(x => x.Customer).Select(g => new { g.Key, N = g.Count(), T = g.Sum(x => x.Total) }).ToList();
            _ = session.Query<GroupOrder>().GroupBy(o => o.Customer).Select(g => new { Name = g.Key, Spent = g.Sum(o => o.Total) }).ToList();
        }
        var made = AutoReduceIndexes();
        Assert.Single(made);
        Assert.Equal("Auto/GroupOrder/ReduceCountAndSum_TotalByCustomer", made[0]);

        DeleteIndex(made[0]);
        using var reader = _store.OpenSession();
        var groups = reader.Query<GroupOrder>().GroupBy(x => x.Customer).Select(g => new { g.Key, N = g.Count(), T = g.Sum(x => x.Total) }).ToList();

        Assert.Equal(4, groups.Count);
        Assert.Equal(made, AutoReduceIndexes());
        Assert.Equal(2, _store.GroupByTranslations.Count); // two shapes translated, the third query was the first's again
    }

    [Fact]
    public void A_projection_capturing_a_variable_reads_its_value_each_time()
    {
        using var session = _store.OpenSession();
        var halves = new List<decimal>();
        foreach (var divisor in new[] { 2m, 4m })
        {
            halves.Add(session.Query<GroupOrder>().GroupBy(x => x.Customer)
                .Select(g => new { g.Key, Part = g.Sum(x => x.Total) / divisor }).ToList().Single(g => g.Key == "Alice").Part);
        }

        Assert.Equal([50m, 25m], halves);
    }

    [Fact]
    public void Moving_documents_between_groups_and_deleting_the_last_of_a_group_is_seen_by_the_next_query()
    {
        using (var session = _store.OpenSession())
        {
            Assert.Equal(2, session.Query<GroupOrder>().GroupBy(x => x.Customer).Select(g => new { g.Key, N = g.Count() }).ToList().Single(g => g.Key == "Bob").N);
            session.Load<GroupOrder>(_orders[2].Id!)!.Customer = "Bob"; // Alice's only order
            session.Delete(session.Load<GroupOrder>(_orders[3].Id!)!); // the only order without a customer
            session.SaveChanges();
        }
        using var reader = _store.OpenSession();

        var groups = reader.Query<GroupOrder>().GroupBy(x => x.Customer).Select(g => new { g.Key, N = g.Count(), T = g.Sum(x => x.Total) }).ToList();

        Assert.Equal(["", "Bob"], groups.Select(g => g.Key).Order(StringComparer.Ordinal));
        Assert.Equal((3, 114.75m), groups.Where(g => g.Key == "Bob").Select(g => (g.N, g.T)).Single());
    }

    [Fact]
    public async Task A_document_the_index_cannot_aggregate_makes_the_query_refuse_rather_than_leave_it_out()
    {
        await _fixture.PutRawAsync("grouporders/huge", """{"Customer":"Bob","Status":1,"Quantity":1,"Points":9000000000000000000,"Total":1,"Weight":1,"Address":{"City":"Oslo"}}""",
            "GroupOrder", typeof(GroupOrder).AssemblyQualifiedName);
        using var session = _store.OpenSession();

        var refused = Assert.Throws<InvalidOperationException>(() =>
            session.Query<GroupOrder>().GroupBy(x => x.Customer).Select(g => new { g.Key, P = g.Sum(x => x.Points) }).ToList());

        Assert.Contains("holds 5 of the 6 documents", refused.Message, StringComparison.Ordinal);
    }

    public static TheoryData<string> Refusals() =>
    [
        "where-before", "computed-key", "named-class-key", "double-key", "computed-sum", "count-with-condition", "first-of-group",
        "group-itself", "groups-enumerated", "static-index-name", "order-before", "async", "nullable-value",
    ];

    [Theory]
    [MemberData(nameof(Refusals))]
    public void Shapes_not_translated_exactly_throw_NotSupportedException_naming_the_part(string shape)
    {
        using var session = _store.OpenSession();
        var orders = session.Query<GroupOrder>();
        var (run, part) = shape switch
        {
            "where-before" => ((Func<object>)(() => orders.Where(x => x.Rush).GroupBy(x => x.Customer).Select(g => g.Count()).ToList()), "a Where (or Search) before GroupBy"),
            "computed-key" => (() => orders.GroupBy(x => x.Customer!.ToUpperInvariant()).Select(g => g.Count()).ToList(), "x.Customer.ToUpperInvariant()"),
            "named-class-key" => (() => orders.GroupBy(x => new CustomerSummary { Customer = x.Customer }).Select(g => g.Count()).ToList(), "a named class"),
            "double-key" => (() => orders.GroupBy(x => x.Weight).Select(g => g.Count()).ToList(), "x.Weight"),
            "computed-sum" => (() => orders.GroupBy(x => x.Customer).Select(g => g.Sum(x => x.Quantity * 2)).ToList(), "(x.Quantity * 2)"),
            "count-with-condition" => (() => orders.GroupBy(x => x.Customer).Select(g => g.Count(x => x.Rush)).ToList(), "a count with a condition"),
            "first-of-group" => (() => orders.GroupBy(x => x.Customer).Select(g => g.First().Total).ToList(), "'First' over a group"),
            "group-itself" => (() => orders.GroupBy(x => x.Customer).Select(g => g.ToList()).ToList(), "'ToList' over a group"),
            "groups-enumerated" => (() => orders.GroupBy(x => x.Customer).ToList(), "the groups themselves"),
            "static-index-name" => (() => session.Query<GroupOrder>("Raven/DocumentsByEntityName").GroupBy(x => x.Customer).Select(g => g.Count()).ToList(),
                "GroupBy is answered for collection queries"),
            "order-before" => (() => orders.OrderBy(x => x.Total).GroupBy(x => x.Customer).Select(g => g.Count()).ToList(), "an OrderBy before GroupBy"),
            "async" => (() => orders.GroupBy(x => x.Customer).Select(g => new { g.Key, N = g.Count() }).ToListAsync(), "use the synchronous form"),
            "nullable-value" => (() => orders.GroupBy(x => x.Customer).Select(g => g.Sum(x => x.Discount!.Value)).ToList(), "x.Discount.Value"),
            _ => throw new ArgumentOutOfRangeException(nameof(shape)),
        };

        var refused = Assert.Throws<NotSupportedException>(run);

        Assert.Contains(part, refused.Message, StringComparison.Ordinal);
    }

    private List<string> AutoReduceIndexes() =>
        [.. IndexNames().Where(name => name.StartsWith("Auto/", StringComparison.Ordinal) && name.Contains("/Reduce", StringComparison.Ordinal))];

    private IEnumerable<string> IndexNames()
    {
        if (_fixture.Store.Database is { } database)
            return database.GetIndexes().Select(d => d.Name);
        return ((RemoteStoreFixture)_fixture).IndexNames();
    }

    private void DeleteIndex(string name)
    {
        if (_fixture.Store.Database is { } database)
            database.DeleteIndex(name);
        else
            ((RemoteStoreFixture)_fixture).DeleteIndex(name);
    }
}

public sealed class EmbeddedGroupByQueryTests() : GroupByQueryTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()));

public sealed class RemoteGroupByQueryTests() : GroupByQueryTests(async () => await RemoteStoreFixture.StartAsync());
