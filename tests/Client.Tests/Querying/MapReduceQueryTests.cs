using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

public sealed class CustomerTotals
{
    public string Customer { get; set; } = "";
    public int Lines { get; set; }
    public decimal Total { get; set; }
    public decimal Dearest { get; set; }
}

public sealed class Sale
{
    public string? Id { get; set; }
    public string Customer { get; set; } = "";
    public List<SaleLine> Lines { get; set; } = [];
}

public sealed class SaleLine
{
    public decimal Price { get; set; }
}

/// <summary>A map/reduce index in C#: one entry per sale line, one result per customer.</summary>
public sealed class Sales_TotalsByCustomer : RavenIndex<Sale>
{
    public Sales_TotalsByCustomer()
    {
        Map = sale => new { sale.Customer, Price = sale.Lines.Select(line => line.Price) };
        GroupBy = ["Customer"];
        Aggregates = [IndexAggregate.Count("Lines"), IndexAggregate.Sum("Total", "Price"), IndexAggregate.Max("Dearest", "Price")];
    }
}

/// <summary>A map/reduce index's results read as typed objects, embedded and remote, against LINQ-to-Objects.</summary>
public abstract class MapReduceQueryTests(Func<Task<StoreFixture>> start) : IAsyncLifetime
{
    private const string Definition = """
        {"Name": "RawSales/TotalsByCustomer", "EntityName": "RawSales",
         "Fields": [{"Name": "Customer", "Path": "customer"}, {"Name": "Price", "Path": "lines[].price", "Sort": "Double"}],
         "Reduce": {"GroupBy": ["Customer"], "Aggregates": [{"Name": "Lines", "Function": "Count"},
                    {"Name": "Total", "Function": "Sum", "Field": "Price"}, {"Name": "Dearest", "Function": "Max", "Field": "Price"}]}}
        """;

    private readonly List<(string Customer, decimal[] Prices)> _sales = [.. Enumerable.Range(0, 40).Select(i =>
        ($"customers/{i % 7}", Enumerable.Range(0, i % 4).Select(j => (decimal)(i * 3 + j) / 4).ToArray()))];

    private StoreFixture _fixture = null!;

    public async Task InitializeAsync()
    {
        _fixture = await start();
        await _fixture.PutIndexAsync("RawSales/TotalsByCustomer", Definition);
        for (var i = 0; i < _sales.Count; i++)
        {
            var lines = string.Join(", ", _sales[i].Prices.Select(p => $$"""{"price": {{p.ToString(System.Globalization.CultureInfo.InvariantCulture)}}}"""));
            await _fixture.PutRawAsync($"rawsales/{i}", $$"""{"customer": "{{_sales[i].Customer}}", "lines": [{{lines}}]}""", "RawSales");
        }
    }

    public async Task DisposeAsync() => await _fixture.DisposeAsync();

    [Fact]
    public void A_static_index_with_a_reduce_keeps_one_typed_result_per_group()
    {
        Assert.True(_fixture.Store.ExecuteIndex(new Sales_TotalsByCustomer()));
        using (var session = _fixture.Store.OpenSession())
        {
            foreach (var (customer, prices) in _sales)
                session.Store(new Sale { Customer = customer, Lines = [.. prices.Select(p => new SaleLine { Price = p })] });
            session.SaveChanges();
        }
        using var reader = _fixture.Store.OpenSession();

        var totals = reader.Query<CustomerTotals>("Sales/TotalsByCustomer").WaitForNonStaleResults(TimeSpan.FromMinutes(1)).ToList();

        var expected = _sales.SelectMany(s => s.Prices.Select(p => (s.Customer, Price: p))).GroupBy(l => l.Customer)
            .ToDictionary(g => g.Key, g => (Lines: g.Count(), Total: g.Sum(l => l.Price), Dearest: g.Max(l => l.Price)));
        Assert.Equal(expected.Keys.Order(StringComparer.Ordinal), totals.Select(t => t.Customer).Order(StringComparer.Ordinal));
        foreach (var total in totals)
            Assert.Equal(expected[total.Customer], (total.Lines, total.Total, total.Dearest));
    }

    [Fact]
    public void Query_of_a_map_reduce_index_returns_one_typed_result_per_group()
    {
        using var session = _fixture.Store.OpenSession();

        var totals = session.Query<CustomerTotals>("RawSales/TotalsByCustomer").WaitForNonStaleResults(TimeSpan.FromMinutes(1)).ToList();

        var expected = _sales.SelectMany(s => s.Prices.Select(p => (s.Customer, Price: p))).GroupBy(l => l.Customer)
            .ToDictionary(g => g.Key, g => (Lines: g.Count(), Total: g.Sum(l => l.Price), Dearest: g.Max(l => l.Price)));
        Assert.Equal(expected.Keys.Order(StringComparer.Ordinal), totals.Select(t => t.Customer).Order(StringComparer.Ordinal));
        foreach (var total in totals)
            Assert.Equal(expected[total.Customer], (total.Lines, total.Total, total.Dearest));
    }
}

public sealed class EmbeddedMapReduceQueryTests() : MapReduceQueryTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()));

public sealed class RemoteMapReduceQueryTests() : MapReduceQueryTests(async () => await RemoteStoreFixture.StartAsync());
