namespace RavenLite.Client.Tests.Caching;

public abstract partial class EntityCacheTests
{
    [Fact]
    public void A_record_without_a_parameterless_constructor_loads_and_saves_through_deserialization()
    {
        using (var session = Store.OpenSession())
        {
            session.Store(new Receipt(null, 12.5m, ["a", "b"]), "receipts/1");
            session.SaveChanges();
        }
        using var first = Store.OpenSession();
        var receipt = first.Load<Receipt>("receipts/1")!;
        Assert.Equal(("receipts/1", 12.5m), (receipt.Id, receipt.Amount));
        Assert.Equal(["a", "b"], receipt.Lines);
        receipt.Lines.Add("not saved");
        using var second = Store.OpenSession();
        Assert.Equal(2, second.Load<Receipt>("receipts/1")!.Lines.Count);
        first.SaveChanges();
        Assert.Equal(2, first.NumberOfRequests);
    }

    [Fact]
    public void A_type_with_an_OnDeserialized_callback_gets_it_called_on_every_load()
    {
        using (var session = Store.OpenSession())
        {
            session.Store(new Invoice { Amounts = [1.5m, 2.5m] }, "invoices/1");
            session.SaveChanges();
        }
        for (var i = 0; i < 2; i++)
        {
            using var session = Store.OpenSession();
            Assert.Equal(4m, session.Load<Invoice>("invoices/1")!.Total);
        }
    }

    [Fact]
    public void Get_only_collections_and_converted_members_load_as_deserialization_gives_them()
    {
        using (var session = Store.OpenSession())
        {
            var ledger = new Ledger();
            ledger.Entries.AddRange([3, 4]);
            session.Store(ledger, "ledgers/1");
            session.Store(new Tagged { Label = "quiet" }, "tagged/1");
            session.SaveChanges();
        }
        using var check = Store.OpenSession();
        Assert.Equal([3, 4], check.Load<Ledger>("ledgers/1")!.Entries);
        Assert.Equal("QUIET", check.Load<Tagged>("tagged/1")!.Label);
        check.Load<Ledger>("ledgers/1")!.Entries.Add(5);
        check.SaveChanges();
        using var after = Store.OpenSession();
        Assert.Equal([3, 4, 5], after.Load<Ledger>("ledgers/1")!.Entries);
    }
}
