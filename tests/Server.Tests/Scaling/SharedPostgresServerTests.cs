using System.Net;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Scaling;

/// <summary>
/// Two RavenLite servers over one PostgreSQL database, each with its own data folder (document cache, Lucene indexes):
/// what one server writes, the other serves, never from a stale cache, and conflicts are caught across them.
/// </summary>
public sealed class SharedPostgresServerTests : IAsyncLifetime
{
    private readonly string _databaseKey = TestServer.NewDataDirectory();
    private TestServer? _first;
    private TestServer? _second;

    private TestServer First => _first!;

    private TestServer Second => _second!;

    public async Task InitializeAsync()
    {
        if (TestPostgres.SkipReason is not null)
            return;
        string[] args = ["--engine", "postgres", "--connection-string", TestPostgres.ForDirectory(_databaseKey)];
        _first = await TestServer.StartAsync(args);
        _second = await TestServer.StartAsync(args);
    }

    public async Task DisposeAsync()
    {
        if (_first is not null)
            await _first.DisposeAsync();
        if (_second is not null)
            await _second.DisposeAsync();
        if (TestPostgres.SkipReason is null)
            TestPostgres.DropForDirectory(_databaseKey);
    }

    [PostgresFact]
    public async Task A_document_written_through_one_server_is_served_by_the_other()
    {
        Assert.Equal(HttpStatusCode.Created, (await First.PutAsync("carts/1", """{"v":1}""", "Cart")).StatusCode);

        Assert.Equal("""{"v":1}""", await Second.Client.GetStringAsync("/docs/carts/1"));
    }

    [PostgresFact]
    public async Task The_other_server_never_serves_its_cached_copy_after_a_change()
    {
        await First.PutAsync("carts/1", """{"v":1}""");
        Assert.Equal("""{"v":1}""", await Second.Client.GetStringAsync("/docs/carts/1"));
        Assert.Equal("""{"v":1}""", await Second.Client.GetStringAsync("/docs/carts/1")); // from its cache now

        var changed = await First.PutAsync("carts/1", """{"v":2}""");

        var served = await Second.Client.GetAsync("/docs/carts/1");
        Assert.Equal("""{"v":2}""", await served.Content.ReadAsStringAsync());
        Assert.Equal(changed.Headers.ETag, served.Headers.ETag);
    }

    [PostgresFact]
    public async Task A_put_with_an_etag_the_other_server_replaced_is_a_409_and_changes_nothing()
    {
        var original = await First.PutAsync("carts/1", """{"v":1}""");
        var seenBySecond = (await Second.Client.GetAsync("/docs/carts/1")).Headers.ETag!.ToString();
        await First.PutAsync("carts/1", """{"v":2}""", ifMatch: original.Headers.ETag!.ToString());

        var conflict = await Second.PutAsync("carts/1", """{"v":3}""", ifMatch: seenBySecond);

        Assert.Equal(HttpStatusCode.Conflict, conflict.StatusCode);
        Assert.Equal("""{"v":2}""", await First.Client.GetStringAsync("/docs/carts/1"));
    }

    [PostgresFact]
    public async Task A_waited_query_on_the_other_server_sees_a_write_made_just_before()
    {
        // Warm the second server's index first, so the query below depends on it catching up.
        await Second.Client.GetStringAsync("/indexes/Raven/DocumentsByEntityName?query=Tag:Cart&waitForNonStaleResults=true");
        for (var round = 0; round < 5; round++)
        {
            await First.PutAsync($"carts/{round}", $$"""{"round":{{round}}}""", "Cart");

            var body = await Second.Client.GetStringAsync(
                "/indexes/Raven/DocumentsByEntityName?query=Tag:Cart&pageSize=100&waitForNonStaleResults=true");

            using var result = System.Text.Json.JsonDocument.Parse(body);
            Assert.Equal(round + 1, result.RootElement.GetProperty("TotalResults").GetInt32());
            Assert.False(result.RootElement.GetProperty("IsStale").GetBoolean());
        }
    }

    [PostgresFact]
    public async Task An_index_defined_through_one_server_is_picked_up_and_deleted_by_the_other()
    {
        await First.PutAsync("carts/1", """{"Product":"apple"}""", "Cart");
        const string definition = """{"Fields":[{"Name":"Product","Path":"Product"}]}""";
        var put = await First.Client.PutAsync("/indexes/Carts/ByProduct", TestServer.Json(definition));
        Assert.Equal(HttpStatusCode.Created, put.StatusCode);

        // The second server learns of it from the notification (or its poll, within a second or two).
        var query = "/indexes/Carts/ByProduct?query=Product:apple&waitForNonStaleResults=true";
        var answered = await Eventually(async () => (await Second.Client.GetAsync(query)).StatusCode == HttpStatusCode.OK);
        Assert.True(answered, "the second server never picked up the index defined through the first");
        using (var result = System.Text.Json.JsonDocument.Parse(await Second.Client.GetStringAsync(query)))
            Assert.Equal(1, result.RootElement.GetProperty("TotalResults").GetInt32());

        Assert.True((await First.Client.DeleteAsync("/indexes/Carts/ByProduct")).IsSuccessStatusCode);
        var dropped = await Eventually(async () => (await Second.Client.GetAsync(query)).StatusCode == HttpStatusCode.NotFound);
        Assert.True(dropped, "the second server still serves an index deleted through the first");
    }

    private static async Task<bool> Eventually(Func<Task<bool>> condition)
    {
        var deadline = DateTime.UtcNow.AddSeconds(15);
        while (DateTime.UtcNow < deadline)
        {
            if (await condition())
                return true;
            await Task.Delay(100);
        }
        return false;
    }
}
