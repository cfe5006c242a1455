using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Issues;

/// <summary>
/// Issue 30: small requests that exhausted the server (a regular expression, a fuzzy term, a JSON Patch copy bomb, and
/// the classes they stand for) are answered with a problem response within a bounded time, while /health keeps
/// answering; queries run under a time limit; a stopping server does not wait for them.
/// </summary>
public sealed class BoundedCostTests : IAsyncLifetime
{
    /// <summary>A bound for a busy shared machine; unbounded, each of these ran for minutes and took gigabytes.</summary>
    private static readonly TimeSpan Bounded = TimeSpan.FromSeconds(10);

    private static readonly string[] s_words = ["apple", "banana", "cherry", "abba"];

    private TestServer _server = null!;

    private HttpClient Client => _server.Client;

    public async Task InitializeAsync()
    {
        _server = await TestServer.StartAsync();
        var created = await Client.PutAsync("/indexes/Words", TestServer.Json("""{"Fields": [{"Name": "text", "Path": "text"}]}"""));
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        foreach (var (word, i) in s_words.Select((w, i) => (w, i)))
            Assert.Equal(HttpStatusCode.Created, (await _server.PutAsync($"words/{i}", $$"""{"text":"{{word}}"}""")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/indexes/Words?query=text:apple&waitForNonStaleResults=true")).StatusCode);
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    /// <summary>Sends the attack with /health polled meanwhile; asserts a problem response within the bound and every /health a 200.</summary>
    private async Task<System.Text.Json.JsonElement> RefusedAsync(Func<Task<HttpResponseMessage>> attack, HttpStatusCode status, string code)
    {
        var watch = Stopwatch.StartNew();
        var sent = attack();
        var healthChecks = 0;
        while (!sent.IsCompleted)
        {
            var health = await Client.GetAsync("/health");
            Assert.Equal(HttpStatusCode.OK, health.StatusCode);
            healthChecks++;
        }
        var response = await sent;
        Assert.True(watch.Elapsed < Bounded, $"answered after {watch.Elapsed} ({healthChecks} /health checks meanwhile)");
        return await JsonAssert.ProblemAsync(response, status, code);
    }

    private Task<HttpResponseMessage> QueryAsync(string query) =>
        Client.GetAsync("/indexes/Words?query=" + Uri.EscapeDataString(query));

    private Task<HttpResponseMessage> PatchAsync(string key, string patch) =>
        Client.SendAsync(new HttpRequestMessage(HttpMethod.Patch, "/docs/" + key)
        {
            Content = new StringContent(patch, new MediaTypeHeaderValue("application/json-patch+json")),
        });

    [Theory]
    [InlineData("text:/.{0,100}a.{0,100}/", "MaxAutomatonStates")] // the issue's: 4.4 GB, no answer
    [InlineData("text:/(a|b)*a(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)/", "MaxAutomatonStates")]
    [InlineData("text:/((a{100}){100}){100}/", "MaxAutomatonStates")]
    [InlineData("text:/~(.*a.{40})/", "MaxAutomatonStates")]
    [InlineData("text:b*a??????????????????????", "MaxAutomatonStates")]
    [InlineData("text:a*", null)]
    public async Task Multi_term_bombs_get_a_400_limit_exceeded_naming_the_limit(string query, string? limit)
    {
        if (limit is null)
        {
            Assert.Equal(HttpStatusCode.OK, (await QueryAsync(query)).StatusCode); // the ordinary kind still answers
            return;
        }
        var problem = await RefusedAsync(() => QueryAsync(query), HttpStatusCode.BadRequest, ErrorCodes.LimitExceeded);

        Assert.Equal(limit, problem.GetProperty(ErrorCodes.LimitMember).GetString());
        Assert.Contains(limit == "MaxAutomatonStates" ? "10,000 states" : limit, problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(30_000, "MaxFuzzyTermLength")] // the issue's: 900 MB and growing
    [InlineData(2_000, "MaxFuzzyTermLength")] // the issue's: 6 s
    public async Task A_long_fuzzy_term_gets_a_400_limit_exceeded(int length, string limit)
    {
        var problem = await RefusedAsync(() => QueryAsync("text:" + new string('a', length) + "~2"), HttpStatusCode.BadRequest, ErrorCodes.LimitExceeded);
        Assert.Equal(limit, problem.GetProperty(ErrorCodes.LimitMember).GetString());
    }

    [Fact]
    public async Task The_copy_bomb_from_the_issue_gets_a_400_limit_exceeded_and_writes_nothing()
    {
        var put = await JsonAssert.ReadAsync(await _server.PutAsync("bomb/1", """{"a":[1]}"""), HttpStatusCode.Created);
        var patch = "[" + string.Join(",", Enumerable.Repeat("""{"op":"copy","from":"/a","path":"/a/-"}""", 23)) + "]";

        var problem = await RefusedAsync(() => PatchAsync("bomb/1", patch), HttpStatusCode.BadRequest, ErrorCodes.LimitExceeded);

        Assert.Equal("MaxWorkValues", problem.GetProperty(ErrorCodes.LimitMember).GetString());
        Assert.Equal("""{"a":[1]}""", await Client.GetStringAsync("/docs/bomb/1"));
        Assert.Equal(put.GetProperty("ETag").GetString(), (await Client.GetAsync("/docs/bomb/1")).Headers.ETag!.Tag.Trim('"'));
    }

    [Fact]
    public async Task Other_growing_patches_get_a_400_limit_exceeded()
    {
        await _server.PutAsync("bomb/2", """{"a":{"x":1},"s":"x"}""");
        var intoItself = "[" + string.Join(",", Enumerable.Range(0, 40).Select(i => $$"""{"op":"copy","from":"/a","path":"/a/k{{i}}"}""")) + "]";
        var big = new string('x', 1024 * 1024);
        var copiesOfAdded = $$"""[{"op":"add","path":"/list","value":["{{big}}"]},""" +
            string.Join(",", Enumerable.Repeat("""{"op":"copy","from":"/list/0","path":"/list/-"}""", 20)) + "]";
        var tooMany = "[" + string.Join(",", Enumerable.Repeat("""{"op":"test","path":"/s","value":"x"}""", 1025)) + "]";

        Assert.Equal("MaxWorkValues", (await RefusedAsync(() => PatchAsync("bomb/2", intoItself), HttpStatusCode.BadRequest, ErrorCodes.LimitExceeded))
            .GetProperty(ErrorCodes.LimitMember).GetString());
        Assert.Equal("MaxDocumentBytes", (await RefusedAsync(() => PatchAsync("bomb/2", copiesOfAdded), HttpStatusCode.BadRequest, ErrorCodes.LimitExceeded))
            .GetProperty(ErrorCodes.LimitMember).GetString());
        Assert.Equal("MaxOperations", (await RefusedAsync(() => PatchAsync("bomb/2", tooMany), HttpStatusCode.BadRequest, ErrorCodes.LimitExceeded))
            .GetProperty(ErrorCodes.LimitMember).GetString());
    }

    [Fact]
    public async Task A_query_past_the_time_limit_gets_a_503_query_timeout()
    {
        // A clock on which every time limit has already passed: the query is stopped at its first check.
        await using var server = await TestServer.StartAsync(configure: builder => builder.Services.AddSingleton<TimeProvider>(new ExpiredTimeProvider()));
        await server.Client.PutAsync("/indexes/Words", TestServer.Json("""{"Fields": [{"Name": "text", "Path": "text"}]}"""));

        var detail = await JsonAssert.ErrorAsync(await server.Client.GetAsync("/indexes/Words?query=text:a*"), HttpStatusCode.ServiceUnavailable, ErrorCodes.QueryTimeout);

        Assert.Contains("limit of 5 s (QueryTimeout, --query-timeout)", detail, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync("/health")).StatusCode);
    }

    [Fact]
    public async Task The_query_time_limit_and_shutdown_timeout_are_server_options()
    {
        await using var server = await TestServer.StartAsync(["--query-timeout", "0.5", "--shutdown-timeout", "2"]);
        var options = server.App.Services.GetRequiredService<RavenLiteServerOptions>();
        Assert.Equal(0.5, options.QueryTimeout);
        Assert.Equal(TimeSpan.FromSeconds(2), server.App.Services.GetRequiredService<IOptions<HostOptions>>().Value.ShutdownTimeout);
        Assert.Throws<ServerStartupException>(() => RavenLiteServer.Build(["--data-dir", TestServer.NewDataDirectory(), "--query-timeout", "0"]));
    }

    [Fact]
    public void A_query_running_when_the_server_stops_is_cancelled_with_a_503()
    {
        var lifetime = _server.App.Services.GetRequiredService<IHostApplicationLifetime>();
        using var stopping = new CancellationTokenSource();
        var context = new DefaultHttpContext { RequestServices = new StoppingServices(_server.App.Services, stopping.Token) };
        var request = RavenLite.Server.Indexes.IndexQueryRequest.Parse(context.Request);
        using var deadline = RavenLite.Server.Indexes.QueryDeadline.Start(context, request);
        Assert.False(deadline.Token.IsCancellationRequested);
        Assert.False(lifetime.ApplicationStopping.IsCancellationRequested);

        stopping.Cancel();

        Assert.True(deadline.Token.IsCancellationRequested);
        Assert.Equal(ErrorCodes.Unavailable, deadline.Refusal()!.Code);
    }

    [Fact]
    public async Task A_stopping_server_cuts_off_requests_that_do_not_finish_within_the_shutdown_timeout()
    {
        var entered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var never = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--shutdown-timeout", "1"],
            addRoutes: app => app.MapGet("/test/stuck", async () =>
            {
                entered.SetResult();
                await never.Task; // ignores every cancellation, as a runaway request would
                return "never";
            }));
        try
        {
            var stuck = server.Client.GetAsync("/test/stuck");
            await entered.Task;
            var watch = Stopwatch.StartNew();
            await server.App.StopAsync();
            Assert.True(watch.Elapsed < Bounded, $"stopped after {watch.Elapsed}");
            await Assert.ThrowsAnyAsync<HttpRequestException>(() => stuck);
        }
        finally
        {
            never.SetResult();
            await server.DisposeAsync();
        }
    }

    /// <summary>A clock whose timers fire at once: every time limit has passed as soon as it is set.</summary>
    private sealed class ExpiredTimeProvider : TimeProvider
    {
        public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
        {
            if (dueTime != Timeout.InfiniteTimeSpan)
                callback(state);
            return new NoTimer();
        }

        private sealed class NoTimer : ITimer
        {
            public bool Change(TimeSpan dueTime, TimeSpan period) => true;

            public void Dispose()
            {
            }

            public ValueTask DisposeAsync() => ValueTask.CompletedTask;
        }
    }

    /// <summary>The server's services with an application lifetime whose stopping token the test controls.</summary>
    private sealed class StoppingServices(IServiceProvider inner, CancellationToken stopping) : IServiceProvider, IHostApplicationLifetime
    {
        public CancellationToken ApplicationStarted => CancellationToken.None;

        public CancellationToken ApplicationStopping => stopping;

        public CancellationToken ApplicationStopped => CancellationToken.None;

        public object? GetService(Type serviceType) => serviceType == typeof(IHostApplicationLifetime) ? this : inner.GetService(serviceType);

        public void StopApplication()
        {
        }
    }
}
