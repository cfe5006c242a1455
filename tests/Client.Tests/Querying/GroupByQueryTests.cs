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
    public double Rate { get; set; }
    public decimal Price { get; set; }
    public DateTime PlacedAt { get; set; }
    public DateTimeOffset? PaidAt { get; set; }
    public GroupAddress Address { get; set; } = new();
}

public sealed class CustomerSummary
{
    public string? Customer { get; set; }
    public int Orders { get; set; }
    public decimal Total { get; set; }
    public double AverageQuantity { get; set; }
}

/// <summary>LINQ GroupBy on a collection query (an auto map/reduce index, or the matches grouped in the client): hand-written shapes and refusals.</summary>
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
    public async Task A_document_the_index_cannot_aggregate_makes_the_query_group_in_memory_rather_than_leave_it_out()
    {
        await _fixture.PutRawAsync("grouporders/huge", """{"Customer":"Bob","Status":1,"Quantity":1,"Points":9000000000000000000,"Total":1,"Weight":1,"Address":{"City":"Oslo"}}""",
            "GroupOrder", typeof(GroupOrder).AssemblyQualifiedName);
        using var session = _store.OpenSession();
        var all = session.Query<GroupOrder>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).ToList();
        Assert.Equal(6, all.Count);

        var groups = session.Query<GroupOrder>().GroupBy(x => x.Customer).Select(g => new { g.Key, P = g.Sum(x => x.Points), N = g.Count() }).ToList();
        var asyncGroups = await session.Query<GroupOrder>().GroupBy(x => x.Customer).Select(g => new { g.Key, P = g.Sum(x => x.Points), N = g.Count() }).ToListAsync();

        var expected = all.GroupBy(x => x.Customer).Select(g => new { g.Key, P = g.Sum(x => x.Points), N = g.Count() }).OrderBy(g => g.Key, StringComparer.Ordinal);
        Assert.Equal(expected, groups.OrderBy(g => g.Key, StringComparer.Ordinal));
        Assert.Equal(expected, asyncGroups.OrderBy(g => g.Key, StringComparer.Ordinal));
        Assert.Contains(groups, g => g.Key == "Bob" && g.P >= 9_000_000_000_000_000_000);
    }

    [Fact]
    public void Where_before_GroupBy_groups_only_the_matches_and_makes_no_map_reduce_index()
    {
        using var session = _store.OpenSession();
        var minimum = 2m;

        var groups = session.Query<GroupOrder>().Where(x => x.Total > minimum && x.Status == GroupStatus.Paid).GroupBy(x => x.Customer)
            .Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(x => x.Total), Average = g.Average(x => x.Discount) }).ToList();

        var expected = _orders.Where(x => x.Total > minimum && x.Status == GroupStatus.Paid).GroupBy(x => x.Customer)
            .Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(x => x.Total), Average = g.Average(x => x.Discount) });
        Assert.Equal(expected.OrderBy(g => g.Key, StringComparer.Ordinal), groups.OrderBy(g => g.Key, StringComparer.Ordinal));
        Assert.Equal([("Alice", 100m), ("Bob", 10.50m)], groups.Select(g => (g.Key!, g.Total)).Order());
        Assert.Empty(AutoReduceIndexes());
    }

    [Fact]
    public void Where_OrderBy_and_Take_before_GroupBy_group_that_page_and_ignore_unsaved_changes()
    {
        using var session = _store.OpenSession();
        session.Load<GroupOrder>(_orders[0].Id!)!.Customer = "Changed, not saved";

        var groups = session.Query<GroupOrder>().Where(x => x.Quantity > 1).OrderByDescending(x => x.Points).Take(3)
            .GroupBy(x => x.Customer).Select(g => new { g.Key, Points = g.Sum(x => x.Points), First = g.First().Points }).ToList(); // Bob 20, Bob 10, "" 7

        Assert.Equal([new { Key = (string?)"Bob", Points = 30L, First = 20L }, new { Key = (string?)"", Points = 7L, First = 7L }], groups);
    }

    [Fact]
    public async Task Async_operators_after_GroupBy_answer_as_the_synchronous_ones()
    {
        using var session = _store.OpenSession();
        var byCustomer = session.Query<GroupOrder>().GroupBy(x => x.Customer).Select(g => new { g.Key, N = g.Count(), T = g.Sum(x => x.Total) });
        var filtered = session.Query<GroupOrder>().Where(x => x.Rush == false).GroupBy(x => x.Status).Select(g => new { g.Key, N = g.Count() });

        var first = await byCustomer.ToListAsync(); // the first use: the map/reduce index is put asynchronously

        Assert.Single(AutoReduceIndexes());
        Assert.Equal(byCustomer.ToList().OrderBy(g => g.Key), first.OrderBy(g => g.Key));
        Assert.Equal(4, await byCustomer.CountAsync());
        Assert.True(await byCustomer.AnyAsync());
        var top = await byCustomer.OrderByDescending(g => g.T).FirstOrDefaultAsync();
        Assert.Equal(("Alice", 100m), (top!.Key, top.T));
        Assert.Null(await byCustomer.Where(g => g.N > 10).FirstOrDefaultAsync());
        await Assert.ThrowsAsync<InvalidOperationException>(() => byCustomer.Where(g => g.N > 10).FirstAsync());
        Assert.Equal(filtered.ToList().OrderBy(g => g.Key), (await filtered.ToListAsync()).OrderBy(g => g.Key));
        Assert.Equal(3, await filtered.CountAsync());
    }

    [Fact]
    public async Task Async_First_projects_only_the_first_group_as_LINQ_does()
    {
        using var session = _store.OpenSession();
        // Bob's orders by points: discount 5, then none, whose Value throws in memory.
        var values = session.Query<GroupOrder>().Where(x => x.Customer == "Bob").OrderBy(x => x.Points)
            .GroupBy(x => x.Discount).Select(g => new { V = g.Sum(x => x.Discount!.Value) });

        Assert.Equal(5, values.First().V);
        Assert.Equal(5, (await values.FirstAsync()).V);
        Assert.Throws<InvalidOperationException>(() => values.ToList());
        await Assert.ThrowsAsync<InvalidOperationException>(() => values.ToListAsync());
    }

    [Fact]
    public void Double_decimal_and_date_keys_group_by_LINQ_equality()
    {
        var start = new DateTime(2020, 1, 1, 8, 0, 0, DateTimeKind.Utc);
        var extra = new List<GroupOrder>
        {
            new() { Customer = "k", Rate = 0.0, Price = 1.0m, PlacedAt = start, PaidAt = new DateTimeOffset(start) },
            new() { Customer = "k", Rate = -0.0, Price = 1.00m, PlacedAt = DateTime.SpecifyKind(start, DateTimeKind.Unspecified), PaidAt = new DateTimeOffset(start).ToOffset(TimeSpan.FromHours(2)) },
            new() { Customer = "k", Rate = double.NaN, Price = 1m, PlacedAt = start.AddTicks(1), PaidAt = new DateTimeOffset(start).ToOffset(TimeSpan.FromHours(-7)) },
            new() { Customer = "k", Rate = double.NaN, Price = 2.5m, PlacedAt = start.AddTicks(1), PaidAt = null },
            new() { Customer = "k", Rate = double.MaxValue, Price = decimal.MaxValue, PlacedAt = start.AddSeconds(1), PaidAt = new DateTimeOffset(start.AddTicks(1)) },
        };
        using (var writer = _store.OpenSession())
        {
            extra.ForEach(writer.Store);
            writer.SaveChanges();
        }
        using var session = _store.OpenSession();
        var orders = session.Query<GroupOrder>().Where(x => x.Customer == "k");

        Assert.Equal([(0d, 2), (double.NaN, 2), (double.MaxValue, 1)],
            orders.GroupBy(x => x.Rate).Select(g => new { g.Key, N = g.Count() }).AsEnumerable().Select(g => (g.Key, g.N)).OrderByDescending(g => g.N).ThenByDescending(g => g.Key));
        Assert.Equal([(1m, 3), (2.5m, 1), (decimal.MaxValue, 1)],
            orders.GroupBy(x => x.Price).Select(g => new { g.Key, N = g.Count() }).AsEnumerable().Select(g => (g.Key, g.N)).Order());
        Assert.Equal([2, 2, 1], orders.GroupBy(x => x.PlacedAt).Select(g => g.Count()).ToList());
        Assert.Equal([(null, 1), (new DateTimeOffset(start), 3), (new DateTimeOffset(start.AddTicks(1)), 1)],
            orders.GroupBy(x => x.PaidAt).Select(g => new { g.Key, N = g.Count() }).AsEnumerable().Select(g => (g.Key, g.N)).OrderBy(g => g.Key));
    }

    [Fact]
    public void Computed_keys_and_aggregates_over_expressions_answer_as_LINQ_to_Objects()
    {
        using var session = _store.OpenSession();

        var groups = session.Query<GroupOrder>().GroupBy(x => new { Initial = x.Customer == null ? "?" : x.Customer.ToLowerInvariant(), x.PlacedAt.Year })
            .Select(g => new { g.Key.Initial, g.Key.Year, Doubled = g.Sum(x => x.Quantity * 2), Rush = g.Count(x => x.Rush), Heaviest = g.Max(x => x.Weight + 1) }).ToList();

        var expected = _orders.GroupBy(x => new { Initial = x.Customer == null ? "?" : x.Customer.ToLowerInvariant(), x.PlacedAt.Year })
            .Select(g => new { g.Key.Initial, g.Key.Year, Doubled = g.Sum(x => x.Quantity * 2), Rush = g.Count(x => x.Rush), Heaviest = g.Max(x => x.Weight + 1) });
        Assert.Equal(expected.OrderBy(g => g.Initial, StringComparer.Ordinal), groups.OrderBy(g => g.Initial, StringComparer.Ordinal));
        Assert.Equal(4, groups.Count);
    }

    [Fact]
    public void A_shape_grouped_in_the_client_is_compiled_once_per_store()
    {
        for (var i = 0; i < 3; i++)
        {
            using var session = _store.OpenSession();
            Assert.Equal(3, session.Query<GroupOrder>().Where(x => x.Status == GroupStatus.Paid).GroupBy(x => x.Rush)
                .Select(g => new { g.Key, N = g.Count() }).AsEnumerable().Sum(g => g.N));
        }

        Assert.Single(_store.GroupingDelegates);
    }

    public static TheoryData<string> Refusals() =>
    [
        "named-class-key", "groups-enumerated", "groups-counted", "static-index-name", "include-before", "element-selector",
    ];

    [Theory]
    [MemberData(nameof(Refusals))]
    public void Shapes_not_answered_exactly_throw_NotSupportedException_naming_the_part(string shape)
    {
        using var session = _store.OpenSession();
        var orders = session.Query<GroupOrder>();
        var (run, part) = shape switch
        {
            "named-class-key" => ((Func<object>)(() => orders.GroupBy(x => new CustomerSummary { Customer = x.Customer }).Select(g => g.Count()).ToList()), "groups by reference"),
            "groups-enumerated" => (() => orders.GroupBy(x => x.Customer).ToList(), "the groups themselves"),
            "groups-counted" => (() => orders.Where(x => x.Rush).GroupBy(x => x.Customer).Count(), "'Count' on the groups"),
            "static-index-name" => (() => session.Query<GroupOrder>("Raven/DocumentsByEntityName").GroupBy(x => x.Customer).Select(g => g.Count()).ToList(),
                "GroupBy is answered for collection queries"),
            "include-before" => (() => session.Query<GroupOrder>().Include(x => x.Customer).GroupBy(x => x.Customer).Select(g => g.Count()).ToList(), "Include or Highlight before GroupBy"),
            "element-selector" => (() => orders.GroupBy(x => x.Customer, x => x.Total).Select(g => g.Sum()).ToList(), "GroupBy with an element selector"),
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
