using System.Net;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Backend;

/// <summary>
/// The remote store remembers each answer's ETag and sends <c>If-None-Match</c>: a 304 gives the same entities as a
/// full read, and a write between two reads is seen.
/// </summary>
public sealed class RemoteRevalidationTests : IAsyncLifetime, IDisposable
{
    private RecordingHandler _handler = null!;
    private RemoteStoreFixture _fixture = null!;
    private RavenStore _store = null!;

    public async Task InitializeAsync()
    {
        _fixture = await RemoteStoreFixture.StartAsync();
        _handler = new RecordingHandler();
        _store = RavenStore.ForServer(_fixture.Address, handler: _handler);
        using var session = _store.OpenSession();
        session.Store(new Cart { Customer = "first", Total = 1, Items = [new Item { ProductId = 1, Name = "one", Price = 1.5 }] }, "carts/1");
        session.Store(new Cart { Customer = "second", Total = 2 }, "carts/2");
        session.SaveChanges();
        session.Query<Cart>().WaitForNonStaleResults().Take(0).ToList();
    }

    public async Task DisposeAsync()
    {
        _store.Dispose();
        await _fixture.DisposeAsync();
    }

    public void Dispose() => _handler?.Dispose();

    [Fact]
    public void A_second_query_is_answered_304_with_the_same_entities_as_a_full_read()
    {
        var full = Query(_store);
        Assert.Equal(HttpStatusCode.OK, _handler.Last.Status);
        var revalidated = Query(_store);
        Assert.Equal(HttpStatusCode.NotModified, _handler.Last.Status);
        Assert.True(_handler.Last.SentIfNoneMatch);
        Assert.Equal(Describe(full), Describe(revalidated));
    }

    [Fact]
    public void A_second_load_is_answered_304_with_the_same_entities()
    {
        var first = Load(_store, "carts/1", "carts/2", "carts/none");
        Assert.Equal(HttpStatusCode.OK, _handler.Last.Status);
        var second = Load(_store, "carts/1", "carts/2", "carts/none");
        Assert.Equal(HttpStatusCode.NotModified, _handler.Last.Status);
        Assert.Equal(Describe(first), Describe(second));
        Assert.Null(second[2]);
    }

    [Fact]
    public async Task The_async_forms_revalidate_too()
    {
        using (var first = _store.OpenSession())
        {
            await first.LoadAsync<Cart>("carts/1");
            await first.Query<Cart>().ToListAsync();
        }
        using var second = _store.OpenSession();
        Assert.Equal("first", (await second.LoadAsync<Cart>("carts/1"))!.Customer);
        Assert.Equal(HttpStatusCode.NotModified, _handler.Last.Status);
        Assert.Equal(2, (await second.Query<Cart>().ToListAsync()).Count);
        Assert.Equal(HttpStatusCode.NotModified, _handler.Last.Status);
    }

    [Fact]
    public async Task A_write_between_two_reads_is_seen()
    {
        Load(_store, "carts/1");
        Query(_store);
        await _fixture.PutRawAsync("carts/1", """{"Customer":"rewritten","Total":9,"Items":[]}""", "Cart");
        Assert.Equal("rewritten", Load(_store, "carts/1")[0]!.Customer);
        Assert.Equal(HttpStatusCode.OK, _handler.Last.Status);
        Assert.Contains(Query(_store), cart => cart.Customer == "rewritten");
        Assert.Equal(HttpStatusCode.OK, _handler.Last.Status);
    }

    [Fact]
    public void A_session_with_UseHttpCache_off_sends_no_If_None_Match()
    {
        Load(_store, "carts/1");
        using var session = _store.OpenSession();
        session.UseHttpCache = false;
        Assert.Equal("first", session.Load<Cart>("carts/1")!.Customer);
        Assert.False(_handler.Last.SentIfNoneMatch);
        Assert.Equal(HttpStatusCode.OK, _handler.Last.Status);
    }

    [Fact]
    public void A_store_with_MaxResponseBytes_0_keeps_no_answers()
    {
        using var store = RavenStore.ForServer(_fixture.Address, new StoreConventions { EntityCache = new EntityCacheOptions { MaxResponseBytes = 0 } },
            handler: _handler);
        Load(store, "carts/1");
        Load(store, "carts/1");
        Assert.False(_handler.Last.SentIfNoneMatch);
        Assert.Equal(HttpStatusCode.OK, _handler.Last.Status);
    }

    private static List<Cart> Query(RavenStore store)
    {
        using var session = store.OpenSession();
        return session.Query<Cart>().ToList();
    }

    private static Cart?[] Load(RavenStore store, params string[] ids)
    {
        using var session = store.OpenSession();
        return session.Load<Cart>(ids);
    }

    private static string Describe(IEnumerable<Cart?> carts) => Newtonsoft.Json.JsonConvert.SerializeObject(carts);

    /// <summary>Passes requests to the network and remembers, for the last one, whether it was conditional and what came back.</summary>
    private sealed class RecordingHandler() : DelegatingHandler(new SocketsHttpHandler())
    {
        public (bool SentIfNoneMatch, HttpStatusCode Status) Last { get; private set; }

        protected override HttpResponseMessage Send(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            var response = base.Send(request, cancellationToken);
            Last = (request.Headers.IfNoneMatch.Count > 0, response.StatusCode);
            return response;
        }

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            var response = await base.SendAsync(request, cancellationToken);
            Last = (request.Headers.IfNoneMatch.Count > 0, response.StatusCode);
            return response;
        }
    }
}
