using System.Diagnostics;
using System.Net;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests;

/// <summary>With a listener on the <c>RavenLite</c> activity source, a request is a span and its query a span inside it.</summary>
public sealed class RequestActivityTests
{
    [Fact]
    public async Task A_query_request_is_a_span_with_the_query_span_inside_it()
    {
        await using var server = await TestServer.StartAsync();
        var tag = "Span" + Guid.NewGuid().ToString("N");
        var spans = new List<Activity>();
        using var listener = ListenToSpans(spans);

        var response = await server.Client.GetAsync($"/indexes/Raven/DocumentsByEntityName?query=Tag:{tag}");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        await RequestSpansStoppedAsync(spans, tag, 1);

        Activity request, query;
        lock (spans)
        {
            // Other tests' servers report too (the source is per process), some with queries that fail: this test's
            // request is the one naming its tag.
            request = spans.First(s => s.OperationName == "ravenlite.request" && s.GetTagItem("url.path") is "/indexes/Raven/DocumentsByEntityName"
                && s.GetTagItem("url.query") is string url && url.Contains(tag, StringComparison.Ordinal));
            query = spans.First(q => q.OperationName == "ravenlite.query" && q.ParentSpanId == request.SpanId);
        }
        Assert.Equal(200, request.GetTagItem("http.response.status_code"));
        Assert.Equal("Raven/DocumentsByEntityName", query.GetTagItem("ravenlite.index"));
    }

    [Fact]
    public async Task An_index_query_request_searches_once_and_one_served_from_the_response_cache_not_at_all()
    {
        await using var server = await TestServer.StartAsync();
        var tag = "One" + Guid.NewGuid().ToString("N");
        var spans = new List<Activity>();
        using var listener = ListenToSpans(spans);
        var url = $"/indexes/Raven/DocumentsByEntityName?query=Tag:{tag}&waitForNonStaleResults=true";

        // The first request waits and runs the query; the second finds its answer in the response cache before any search.
        for (var i = 0; i < 2; i++)
            Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync(url)).StatusCode);
        await RequestSpansStoppedAsync(spans, tag, 2);

        lock (spans)
        {
            var requests = spans.Where(s => s.OperationName == "ravenlite.request"
                && s.GetTagItem("url.query") is string query && query.Contains(tag, StringComparison.Ordinal)).ToList();
            Assert.Equal(2, requests.Count);
            var searches = requests.Select(request => spans.Count(q => q.OperationName == "ravenlite.query" && q.ParentSpanId == request.SpanId));
            Assert.Equal([0, 1], searches.Order());
        }
    }

    /// <summary>
    /// Waits until <paramref name="count"/> request spans naming <paramref name="tag"/> have stopped: a request span stops
    /// when the server's middleware returns, which can be after the client has read the response (seen on a loaded machine).
    /// </summary>
    private static async Task RequestSpansStoppedAsync(List<Activity> spans, string tag, int count)
    {
        for (var waited = System.Diagnostics.Stopwatch.StartNew(); waited.Elapsed < TimeSpan.FromSeconds(10); await Task.Yield())
        {
            lock (spans)
            {
                if (spans.Count(s => s.OperationName == "ravenlite.request" && s.GetTagItem("url.query") is string query
                    && query.Contains(tag, StringComparison.Ordinal)) >= count)
                    return;
            }
        }
    }

    /// <summary>Collects every span of the <c>RavenLite</c> source that stops while the listener lives (lock the list to read it).</summary>
    private static ActivityListener ListenToSpans(List<Activity> spans)
    {
        var listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == "RavenLite",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = activity =>
            {
                lock (spans)
                    spans.Add(activity);
            },
        };
        ActivitySource.AddActivityListener(listener);
        return listener;
    }
}
