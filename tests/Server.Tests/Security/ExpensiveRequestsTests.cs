using System.Net;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Security;

/// <summary>
/// Issue 30: ASP.NET Core's rate limiter on expensive routes, configurable (<c>ExpensiveRequestsPerMinute</c>, off by
/// default): beyond the limit an address's queries get 429 with Retry-After while its other requests are served.
/// </summary>
public sealed class ExpensiveRequestsTests
{
    [Fact]
    public async Task Queries_beyond_the_limit_get_429_too_many_requests_and_loads_are_still_served()
    {
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--RavenLite:ExpensiveRequestsPerMinute=3"]);
        (await server.PutAsync("notes/1", """{"n":1}""", "Note")).EnsureSuccessStatusCode();
        for (var i = 0; i < 3; i++)
            Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync($"/indexes/Raven/DocumentsByEntityName?query=Tag:Note&start={i}")).StatusCode);

        using var refused = await server.Client.GetAsync("/indexes/Raven/DocumentsByEntityName?query=Tag:Note");
        Assert.Equal(HttpStatusCode.TooManyRequests, refused.StatusCode);
        Assert.Equal("too-many-requests", JsonDocument.Parse(await refused.Content.ReadAsStringAsync()).RootElement.GetProperty("code").GetString());
        Assert.NotNull(refused.Headers.RetryAfter);
        Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync("/docs/notes/1")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync("/indexes/Raven/DocumentsByEntityName?definition=yes")).StatusCode);
        Assert.Equal(HttpStatusCode.TooManyRequests, (await server.Client.DeleteAsync("/bulk_docs/Raven/DocumentsByEntityName?query=Tag:Note")).StatusCode);
    }

    [Fact]
    public async Task Without_the_setting_there_is_no_limit()
    {
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0"]);
        for (var i = 0; i < 40; i++)
            Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync($"/indexes/Raven/DocumentsByEntityName?query=Tag:Note&start={i}")).StatusCode);
    }

    [Theory]
    [InlineData("GET", "/indexes/Orders/ByCustomer", true)]
    [InlineData("GET", "/indexes/Orders/ByCustomer?definition=yes", false)]
    [InlineData("PUT", "/indexes/Orders/ByCustomer", true)]
    [InlineData("DELETE", "/indexes/Orders/ByCustomer", false)]
    [InlineData("GET", "/indexes", false)]
    [InlineData("PATCH", "/bulk_docs/Orders/ByCustomer", true)]
    [InlineData("DELETE", "/bulk_docs/Orders/ByCustomer", true)]
    [InlineData("POST", "/bulk_docs", false)]
    [InlineData("POST", "/admin/backup", true)]
    [InlineData("GET", "/docs/orders/1", false)]
    [InlineData("POST", "/queries", false)]
    public void What_counts_as_expensive_is_decided_from_method_and_path(string method, string target, bool expensive)
    {
        var context = new Microsoft.AspNetCore.Http.DefaultHttpContext();
        var question = target.IndexOf('?', StringComparison.Ordinal);
        context.Request.Method = method;
        context.Request.Path = question < 0 ? target : target[..question];
        if (question >= 0)
            context.Request.QueryString = new Microsoft.AspNetCore.Http.QueryString(target[question..]);
        Assert.Equal(expensive, RavenLite.Server.Security.ExpensiveRequests.IsExpensive(context.Request));
    }
}
