namespace RavenLite.Client.Tests.Session;

public abstract partial class SessionTests
{
    public sealed class Customer
    {
        public string? Id { get; set; }

        public string? Name { get; set; }
    }

    public sealed class Order
    {
        public string? Id { get; set; }

        public string? CustomerId { get; set; }

        public List<string> ProductIds { get; set; } = [];
    }

    private void StoreOrderGraph()
    {
        using var session = Store.OpenSession();
        session.Store(new Customer { Name = "ayende" }, "customers/1");
        session.Store(new Customer { Name = "product a" }, "products/a");
        session.Store(new Customer { Name = "product b" }, "products/b");
        session.Store(new Order { CustomerId = "customers/1", ProductIds = ["products/a", "products/b", "products/missing"] }, "orders/1");
        session.SaveChanges();
    }

    [Fact]
    public void Load_with_include_brings_the_referenced_document_in_the_same_request()
    {
        StoreOrderGraph();
        using var session = Store.OpenSession();
        var order = session.Load<Order>("orders/1", include: x => x.CustomerId)!;
        var customer = session.Load<Customer>(order.CustomerId!)!;

        Assert.Equal("ayende", customer.Name);
        Assert.Equal(1, session.NumberOfRequests);
        Assert.Same(customer, session.Load<Customer>("customers/1"));
        Assert.Equal(1, session.NumberOfRequests);
    }

    [Fact]
    public void Load_with_an_include_of_an_array_of_ids_brings_every_one_that_exists()
    {
        StoreOrderGraph();
        using var session = Store.OpenSession();
        var order = session.Load<Order>("orders/1", include: x => x.ProductIds)!;
        var products = session.Load<Customer>(order.ProductIds.Take(2));

        Assert.Equal(["product a", "product b"], products.Select(p => p!.Name));
        Assert.Equal(1, session.NumberOfRequests);
        Assert.Null(session.Load<Customer>("products/missing"));
        Assert.Equal(2, session.NumberOfRequests);
    }

    [Fact]
    public void Include_must_be_a_member_chain()
    {
        using var session = Store.OpenSession();
        Assert.Throws<ArgumentException>(() => session.Load<Order>("orders/1", include: x => x.CustomerId!.ToUpperInvariant()));
        Assert.Equal(0, session.NumberOfRequests);
    }
}
