using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.BulkInsert;

public abstract class BulkInsertTests : StoreTests
{
    /// <summary>Embedded: the count after each batch; remote: the server's count when it answers, at the end.</summary>
    protected abstract bool CountsEachBatch { get; }

    private static Cart NewCart(string customer) => new() { Customer = customer, Total = 3, Items = [new Item { ProductId = 1, Name = "tea", Price = 2.5 }] };

    private T? Reload<T>(string id) where T : class
    {
        using var session = Store.OpenSession();
        return session.Load<T>(id);
    }

    [Fact]
    public void Stored_entities_get_session_style_ids_and_metadata_and_are_loadable()
    {
        var carts = Enumerable.Range(0, 25).Select(i => NewCart("c" + i)).ToList();
        using (var bulk = Store.BulkInsert(batchSize: 10))
        {
            foreach (var cart in carts)
                bulk.Store(cart);
            bulk.Store(NewCart("named"), "carts/named");
        }
        Assert.All(carts, c => Assert.StartsWith("carts/", c.Id, StringComparison.Ordinal));
        Assert.Equal(carts.Count, carts.Select(c => c.Id).Distinct().Count());
        Assert.Equal("c7", Reload<Cart>(carts[7].Id!)!.Customer);
        Assert.Equal("named", Reload<Cart>("carts/named")!.Customer);
        using var session = Store.OpenSession();
        Assert.Equal(26, session.Query<Cart>().WaitForNonStaleResults(TimeSpan.FromSeconds(30)).ToList().Count);
    }

    [Fact]
    public void Entities_of_many_sizes_each_keep_their_own_content_across_many_batches_and_bulk_inserts()
    {
        // Embedded, a batch's documents share memory that later batches (and, once it ends, later bulk inserts) reuse
        // after it is written: none may get another's bytes.
        var rounds = Enumerable.Range(0, 2).Select(round => Enumerable.Range(0, 400)
            .Select(i => NewCart($"r{round}c{i}:" + new string((char)('a' + (i + round) % 26), (i + round * 7) * 389 % 5000)))
            .ToList()).ToList();
        foreach (var carts in rounds)
        {
            using var bulk = Store.BulkInsert(batchSize: 25);
            foreach (var cart in carts)
                bulk.Store(cart);
        }
        using var session = Store.OpenSession();
        foreach (var carts in rounds)
            Assert.Equal(carts.Select(c => c.Customer), session.Load<Cart>(carts.Select(c => c.Id!)).Select(c => c?.Customer));
    }

    [Fact]
    public void A_bulk_inserted_entity_is_stored_as_a_session_stores_it_whatever_its_values()
    {
        Typed[] entities =
        [
            new(),
            new() { Ratio = double.NaN, Text = "\ufffd\u0001 \U0001F600", Huge = ulong.MaxValue, Moment = DateTime.MaxValue },
        ];
        using (var bulk = Store.BulkInsert(batchSize: 10))
        {
            for (var i = 0; i < entities.Length; i++)
                bulk.Store(entities[i], "typed/bulk" + i);
        }
        using (var session = Store.OpenSession())
        {
            for (var i = 0; i < entities.Length; i++)
                session.Store(entities[i], "typed/session" + i);
            session.SaveChanges();
        }
        var stored = Store.Backend.Load(["typed/bulk0", "typed/session0", "typed/bulk1", "typed/session1"]);
        Assert.All(stored, Assert.NotNull);
        Assert.Equal(Text(stored[1]!.DataJson).Replace("session", "bulk", StringComparison.Ordinal), Text(stored[0]!.DataJson));
        Assert.Equal(Text(stored[3]!.DataJson).Replace("session", "bulk", StringComparison.Ordinal), Text(stored[2]!.DataJson));
        Assert.Contains("\"Ratio\":\"NaN\"", Text(stored[2]!.DataJson), StringComparison.Ordinal);

        static string Text(ReadOnlyMemory<byte> json) => System.Text.Encoding.UTF8.GetString(json.Span);
    }

    [Fact]
    public void A_string_holding_half_of_a_character_is_refused_by_bulk_insert_and_session_alike_and_nothing_is_written()
    {
        var half = new Typed { Text = "lone \ud800 surrogate" };
        using (var bulk = Store.BulkInsert(batchSize: 10))
        {
            // Refused when its batch is written: by Store when that fills the batch, at the latest when the operation ends.
            var refused = Assert.Throws<ArgumentException>(() =>
            {
                bulk.Store(half, "typed/half-bulk");
                bulk.Dispose();
            });
            Assert.Contains("unpaired UTF-16 surrogate, U+D800", refused.Message, StringComparison.Ordinal);
        }
        using (var session = Store.OpenSession())
        {
            var refused = Assert.Throws<ArgumentException>(() =>
            {
                session.Store(half, "typed/half-session");
                session.SaveChanges();
            });
            Assert.Contains("unpaired UTF-16 surrogate, U+D800", refused.Message, StringComparison.Ordinal);
        }
        // The serializer's per-thread writer is not left holding the refused character.
        using (var session = Store.OpenSession())
        {
            session.Store(new Typed { Text = "whole" }, "typed/whole-session");
            session.SaveChanges();
        }
        var stored = Store.Backend.Load(["typed/half-bulk", "typed/half-session", "typed/whole-session"]);
        Assert.Null(stored[0]);
        Assert.Null(stored[1]);
        Assert.Contains("\"Text\":\"whole\"", System.Text.Encoding.UTF8.GetString(stored[2]!.DataJson.Span), StringComparison.Ordinal);
    }

    [Fact]
    public void Entities_of_different_types_in_one_batch_each_get_their_own_type_s_metadata()
    {
        using (var bulk = Store.BulkInsert(batchSize: 4))
        {
            for (var i = 0; i < 3; i++)
            {
                bulk.Store(NewCart("mixed" + i), "carts/mixed" + i);
                bulk.Store(new Dog { Name = "rex" + i, Breed = "lab" }, "animals/mixed" + i);
            }
        }
        using var polymorphic = Fixture.OpenAnotherStore(new StoreConventions { UseClrTypeOnLoad = true });
        using (var typed = polymorphic.OpenSession())
            Assert.Equal("lab", Assert.IsType<Dog>(typed.Load<Animal>("animals/mixed2")).Breed);
        using var session = Store.OpenSession();
        Assert.Equal("mixed2", session.Load<Cart>("carts/mixed2")!.Customer);
        Assert.Equal(3, session.Query<Dog>().WaitForNonStaleResults(TimeSpan.FromSeconds(30)).ToList().Count);
    }

    [Fact]
    public void Progress_counts_whole_batches_as_they_commit()
    {
        var totals = new List<long>();
        var bulk = Store.BulkInsert(batchSize: 4);
        bulk.BatchWritten += (_, total) => { lock (totals) totals.Add(total); };
        for (var i = 0; i < 10; i++)
            bulk.Store(NewCart("p" + i));
        bulk.Dispose();
        Assert.Equal(10, bulk.DocumentsWritten);
        Assert.Equal(CountsEachBatch ? [4L, 8L, 10L] : [10L], totals);
        bulk.Dispose();
    }

    [Fact]
    public void A_bad_entity_is_refused_with_its_position_and_nothing_of_its_batch_is_written()
    {
        var loop = new SelfReference { Id = "loops/1" };
        loop.Self = loop;
        var bulk = Store.BulkInsert(batchSize: 5);
        for (var i = 1; i <= 7; i++)
            bulk.Store(NewCart("b" + i), "carts/b" + i);
        // Remote, the refusal aborts the request: a batch the server has not yet read would go with the connection.
        Assert.True(SpinWait.SpinUntil(() => Reload<Cart>("carts/b5") is not null, TimeSpan.FromSeconds(30)));
        var error = Assert.Throws<ArgumentException>(() => bulk.Store(loop));
        Assert.Contains("entity 8", error.Message, StringComparison.Ordinal);
        Assert.Contains("entities 6-8", error.Message, StringComparison.Ordinal);
        Assert.ThrowsAny<Exception>(() => bulk.Store(NewCart("after"), "carts/after"));
        bulk.Dispose();
        if (CountsEachBatch)
            Assert.Equal(5, bulk.DocumentsWritten);
        Assert.NotNull(Reload<Cart>("carts/b5"));
        Assert.Null(Reload<Cart>("carts/b6"));
        Assert.Null(Reload<Cart>("carts/b7"));
        Assert.Null(Reload<Cart>("carts/after"));
    }

    [Fact]
    public void Cancellation_stops_the_insert_and_leaves_whole_batches_only()
    {
        using var cancel = new CancellationTokenSource();
        var bulk = Store.BulkInsert(batchSize: 5, cancel.Token);
        for (var i = 1; i <= 5; i++)
            bulk.Store(NewCart("x" + i), "carts/x" + i);
        Assert.True(SpinWait.SpinUntil(() => Reload<Cart>("carts/x5") is not null, TimeSpan.FromSeconds(30)));
        bulk.Store(NewCart("x6"), "carts/x6");
        cancel.Cancel();
        Assert.ThrowsAny<OperationCanceledException>(() => bulk.Store(NewCart("x7"), "carts/x7"));
        Assert.ThrowsAny<OperationCanceledException>(bulk.Dispose);
        if (CountsEachBatch)
            Assert.Equal(5, bulk.DocumentsWritten);
        Assert.NotNull(Reload<Cart>("carts/x5"));
        Assert.Null(Reload<Cart>("carts/x6"));
    }

    [Fact]
    public async Task A_batch_the_database_refuses_writes_none_of_its_documents()
    {
        using (var session = Store.OpenSession())
        {
            session.Store(NewCart("taken"), "carts/3");
            session.SaveChanges();
        }
        // Generated ids must be new: the fresh store hands out carts/1, carts/2, carts/3, and carts/3 exists.
        var bulk = Store.BulkInsert(batchSize: 3);
        for (var i = 0; i < 3; i++)
            bulk.Store(NewCart("generated"));
        await Assert.ThrowsAsync<ConcurrencyException>(async () => await bulk.DisposeAsync());
        Assert.Equal(0, bulk.DocumentsWritten);
        Assert.Null(Reload<Cart>("carts/1"));
        Assert.Null(Reload<Cart>("carts/2"));
        Assert.Equal("taken", Reload<Cart>("carts/3")!.Customer);
    }
}

public sealed class EmbeddedBulkInsertTests : BulkInsertTests
{
    protected override bool CountsEachBatch => true;

    protected override Task<StoreFixture> StartAsync() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start());
}

public sealed class RemoteBulkInsertTests : BulkInsertTests
{
    protected override bool CountsEachBatch => false;

    protected override async Task<StoreFixture> StartAsync() => await RemoteStoreFixture.StartAsync();
}
