using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Session;

public abstract partial class SessionTests
{
    public sealed class Shipment
    {
        public string? Id { get; set; }

        public Address? To { get; set; }

        public double Weight { get; set; }

        public string? Notes { get; set; }
    }

    public sealed class Address
    {
        public string? City { get; set; }

        public string? Zip { get; set; }
    }

    public sealed class ShipmentLabel
    {
        public string? Destination { get; set; }

        public double Kilograms { get; set; }

        public Address? Address { get; set; }
    }

    [Fact]
    public void Query_with_include_brings_the_referenced_documents_so_the_following_load_makes_no_request()
    {
        StoreOrderGraph();
        using var session = Store.OpenSession();
        var orders = session.Query<Order>().Include(x => x.CustomerId).Include(x => x.ProductIds)
            .WaitForNonStaleResults(TimeSpan.FromSeconds(30)).ToList();
        Assert.Equal(1, session.NumberOfRequests);

        var customer = session.Load<Customer>(orders.Single().CustomerId!)!;
        var products = session.Load<Customer>(["products/a", "products/b"]);

        Assert.Equal("ayende", customer.Name);
        Assert.Equal(["product a", "product b"], products.Select(p => p!.Name));
        Assert.Equal(1, session.NumberOfRequests);
        Assert.Same(customer, session.Load<Customer>("customers/1"));
        Assert.Null(session.Load<Customer>("products/missing"));
        Assert.Equal(2, session.NumberOfRequests);
    }

    [Fact]
    public async Task Query_with_include_async_fills_the_session_too()
    {
        StoreOrderGraph();
        using var session = Store.OpenSession();
        var orders = await session.Query<Order>().Include(x => x.CustomerId).WaitForNonStaleResults(TimeSpan.FromSeconds(30)).ToListAsync();

        Assert.Equal("ayende", session.Load<Customer>(orders.Single().CustomerId!)!.Name);
        Assert.Equal(1, session.NumberOfRequests);
    }

    [Fact]
    public void Query_without_include_leaves_the_referenced_document_to_a_request()
    {
        StoreOrderGraph();
        using var session = Store.OpenSession();
        var order = session.Query<Order>().WaitForNonStaleResults(TimeSpan.FromSeconds(30)).ToList().Single();

        session.Load<Customer>(order.CustomerId!);

        Assert.Equal(2, session.NumberOfRequests);
    }

    [Fact]
    public void Stream_refuses_includes_before_any_request()
    {
        using var session = Store.OpenSession();
        Assert.Throws<InvalidOperationException>(() => session.Query<Order>().Include(x => x.CustomerId).Stream());
        Assert.Equal(0, session.NumberOfRequests);
    }

    [Fact]
    public void Select_into_an_anonymous_type_returns_only_those_fields()
    {
        Seed("carts/1", "carts/2");
        using var session = Store.OpenSession();
        var rows = session.Query<Cart>().WaitForNonStaleResults(TimeSpan.FromSeconds(30)).Statistics(out var stats)
            .Select(x => new { x.Id, x.Customer, x.Total }).ToList();

        Assert.Equal(["carts/1", "carts/2"], rows.Select(r => r.Customer).Order(StringComparer.Ordinal));
        Assert.All(rows, r => Assert.Equal(r.Customer, r.Id));
        Assert.All(rows, r => Assert.Equal(1, r.Total));
        Assert.Equal(2, stats.TotalResults);
        Assert.Equal(1, session.NumberOfRequests);
    }

    [Fact]
    public async Task Select_into_a_named_class_maps_nested_members_and_reads_a_missing_one_as_null()
    {
        using (var write = Store.OpenSession())
        {
            write.Store(new Shipment { To = new Address { City = "Hadera", Zip = "38000" }, Weight = 2.5, Notes = "fragile" }, "shipments/1");
            write.Store(new Shipment { Weight = 1 }, "shipments/2");
            write.SaveChanges();
        }
        using var session = Store.OpenSession();
        var labels = await session.Query<Shipment>().WaitForNonStaleResults(TimeSpan.FromSeconds(30))
            .Select(x => new ShipmentLabel { Destination = x.To!.City, Kilograms = x.Weight, Address = x.To }).ToListAsync();

        var first = labels.Single(l => l.Kilograms == 2.5);
        Assert.Equal("Hadera", first.Destination);
        Assert.Equal("38000", first.Address!.Zip);
        var second = labels.Single(l => l.Kilograms == 1);
        Assert.Null(second.Destination);
        Assert.Null(second.Address);
    }

    [Fact]
    public async Task The_backend_hands_over_exactly_the_fetched_fields_of_each_result()
    {
        using (var write = Store.OpenSession())
        {
            write.Store(new Shipment { To = new Address { City = "Hadera", Zip = "38000" }, Weight = 2.5, Notes = "fragile" }, "shipments/1");
            write.SaveChanges();
        }
        using var session = Store.OpenSession();
        var query = new IndexQuery { Query = session.Query<Shipment>().ToString(), WaitForNonStaleResults = true };
        var page = await Store.Backend.QueryAsync(DocumentSession.CollectionIndexName, query,
            new RavenLite.Client.Backend.QueryShape([], ["Weight", "To.City", "Missing"]), CancellationToken.None);

        Assert.Empty(page.Results);
        var fields = Assert.Single(page.Projections);
        Assert.Equal("""{"Weight":2.5,"To.City":"Hadera","Missing":null}""", System.Text.Encoding.UTF8.GetString(fields.Span));
    }

    [Fact]
    public void Projected_results_are_not_tracked_and_SaveChanges_writes_nothing_for_them()
    {
        using (var write = Store.OpenSession())
        {
            write.Store(new Shipment { To = new Address { City = "Hadera" }, Weight = 2.5 }, "shipments/1");
            write.SaveChanges();
        }
        using var session = Store.OpenSession();
        var label = session.Query<Shipment>().WaitForNonStaleResults(TimeSpan.FromSeconds(30))
            .Select(x => new ShipmentLabel { Destination = x.To!.City, Kilograms = x.Weight }).ToList().Single();
        label.Kilograms = 99;
        label.Destination = "elsewhere";

        session.SaveChanges();
        Assert.Equal(1, session.NumberOfRequests);
        var loaded = session.Load<Shipment>("shipments/1")!;
        Assert.Equal(2, session.NumberOfRequests);
        Assert.Equal(2.5, loaded.Weight);
        Assert.Equal("Hadera", Reload<Shipment>("shipments/1")!.To!.City);
    }

    [Fact]
    public void Select_of_anything_but_entity_members_runs_on_the_client_over_untracked_entities()
    {
        Cart[] carts =
        [
            new() { Customer = "ann", Total = 3, Items = [new Item { Name = "tea" }] },
            new() { Customer = "bob", Total = 5, Items = [new Item { Name = "milk" }, new Item { Name = "jam" }] },
        ];
        using (var writer = Store.OpenSession())
        {
            foreach (var cart in carts)
                writer.Store(cart);
            writer.SaveChanges();
        }
        using var session = Store.OpenSession();
        var query = session.Query<Cart>().WaitForNonStaleResults(TimeSpan.FromSeconds(30));

        Assert.Equal(carts.Select(x => x.Total).Order(), query.Select(x => x.Total).ToList().Order());
        var computed = query.Select(x => new { Upper = x.Customer!.ToUpperInvariant(), First = x.Items[0].Name, Lines = x.Items.Count * 10 }).ToList();
        Assert.Equal(carts.Select(x => new { Upper = x.Customer!.ToUpperInvariant(), First = x.Items[0].Name, Lines = x.Items.Count * 10 }).OrderBy(x => x.Upper, StringComparer.Ordinal),
            computed.OrderBy(x => x.Upper, StringComparer.Ordinal));
        Assert.Equal(["ANN", "BOB"], query.Select(x => x.Customer!.ToUpperInvariant()).Order(StringComparer.Ordinal));
        // Untracked: nothing read for a projection is written back.
        session.SaveChanges();
        Assert.Equal(3, session.NumberOfRequests);
    }
}
