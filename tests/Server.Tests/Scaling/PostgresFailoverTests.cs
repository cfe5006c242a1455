using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Text;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using Xunit.Abstractions;

namespace RavenLite.Server.Tests.Scaling;

/// <summary>
/// Two RavenLite servers over a PostgreSQL primary and its streaming standby (<c>Host=primary,standby;Target Session
/// Attributes=primary</c>), writers running through both; the primary is stopped as a crash would stop it and the
/// standby promoted. Writes resume without a restart, nothing acknowledged is lost with a synchronous standby, and no
/// write is applied twice by the retry rule (<c>storage-unavailable</c>: send it again with the same
/// <c>If-None-Match: *</c>; a 409 means the first attempt was stored).
/// </summary>
public sealed class PostgresFailoverTests(ITestOutputHelper output)
{
    private static readonly TimeSpan ResumeLimit = TimeSpan.FromSeconds(10);

    [PostgresPairFact]
    public Task With_a_synchronous_standby_writes_resume_after_failover_and_every_acknowledged_write_survives() =>
        FailOver(synchronous: true, writesAfterPromotion: 100);

    [PostgresPairFact]
    [Trait("Category", "Slow")]
    public Task With_an_asynchronous_standby_writes_resume_after_failover_and_the_lost_writes_are_measured() =>
        FailOver(synchronous: false, writesAfterPromotion: 100);

    [PostgresPairFact]
    [Trait("Category", "Slow")]
    public Task With_a_synchronous_standby_a_longer_run_loses_nothing() =>
        FailOver(synchronous: true, writesAfterPromotion: 2_000, writesBeforeFailure: 5_000);

    [PostgresPairFact]
    [Trait("Category", "Slow")]
    public Task With_an_asynchronous_standby_a_longer_run_measures_the_loss_window() =>
        FailOver(synchronous: false, writesAfterPromotion: 2_000, writesBeforeFailure: 5_000);

    /// <summary>
    /// An asynchronous standby that was down while the primary acknowledged writes (a deterministic stand-in for
    /// replication lag): the failover loses them, though both servers had read and indexed them. The etags they had
    /// must not be given out again, or the indexers, already past them, would skip the new writes.
    /// </summary>
    [PostgresPairFact]
    public async Task After_a_failover_that_lost_acknowledged_writes_no_etag_is_given_out_twice_and_each_new_write_is_indexed_once()
    {
        using var pair = TestPostgresPair.Start(synchronous: false);
        string[] args = ["--engine", "postgres", "--connection-string", pair.FailoverConnectionString];
        await using var first = await TestServer.StartAsync(args);
        await using var second = await TestServer.StartAsync(args);
        TestServer[] servers = [first, second];
        for (var i = 0; i < 10; i++)
            await PutWithRetry(servers[i % 2], $"carts/kept-{i}", "Cart");
        pair.WaitForStandbyToCatchUp(TimeSpan.FromSeconds(30));
        pair.StopStandby();
        long lastLost = 0;
        for (var i = 0; i < 5; i++)
            lastLost = await PutWithRetry(servers[i % 2], $"carts/lost-{i}", "Cart");
        foreach (var server in servers)
        {
            // Both servers have seen and indexed the writes about to be lost, and cached one.
            using var indexed = JsonDocument.Parse(await server.Client.GetStringAsync(
                "/indexes/Raven/DocumentsByEntityName?query=Tag:Cart&pageSize=0&waitForNonStaleResults=true&timeout=25"));
            Assert.Equal(15, indexed.RootElement.GetProperty("TotalResults").GetInt32());
            Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync("/docs/carts/lost-0")).StatusCode);
        }

        pair.KillPrimary();
        pair.StartStandby();
        pair.Promote();
        var etags = new List<long>();
        for (var i = 0; i < 10; i++)
            etags.Add(await PutWithRetry(servers[i % 2], $"carts/after-{i}", "After"));

        output.WriteLine($"lost etags up to {lastLost}; written after the failover: {string.Join(", ", etags)}");
        Assert.All(etags, etag => Assert.True(etag > lastLost, $"etag {etag} given out again after the failover lost it"));
        foreach (var server in servers)
        {
            Assert.Equal(HttpStatusCode.NotFound, (await server.Client.GetAsync("/docs/carts/lost-0")).StatusCode);
            using var after = JsonDocument.Parse(await server.Client.GetStringAsync(
                "/indexes/Raven/DocumentsByEntityName?query=Tag:After&pageSize=100&waitForNonStaleResults=true&timeout=25"));
            Assert.Equal(10, after.RootElement.GetProperty("TotalResults").GetInt32());
        }
    }

    /// <summary>
    /// A write in flight when the primary dies: a synchronous primary holds the commit (its standby is down) and is
    /// killed while it waits. The client is told the outcome is unknown; its retry (same <c>If-None-Match: *</c>) is
    /// stored exactly once on the promoted standby.
    /// </summary>
    [PostgresPairFact]
    public async Task A_write_in_flight_at_the_crash_fails_as_retryable_with_unknown_outcome_and_its_retry_is_stored_once()
    {
        using var pair = TestPostgresPair.Start(synchronous: true);
        await using var server = await TestServer.StartAsync(["--engine", "postgres", "--connection-string", pair.FailoverConnectionString]);
        await PutWithRetry(server, "carts/before", "Cart");
        pair.StopStandby();
        var inFlight = server.PutAsync("carts/in-flight", """{"v":1}""", "Cart", ifMatch: null);
        await Task.Run(() => pair.WaitForCommitWaitingOnStandby(TimeSpan.FromSeconds(30)));
        Assert.False(inFlight.IsCompleted, "the commit should wait for the stopped synchronous standby");
        pair.KillPrimary();
        var failed = await inFlight;
        var problem = await failed.Content.ReadAsStringAsync();
        output.WriteLine(problem);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, failed.StatusCode);
        Assert.Contains("\"storage-unavailable\"", problem, StringComparison.Ordinal);
        Assert.Contains("\"outcomeUnknown\":true", problem, StringComparison.Ordinal);
        Assert.Equal("1", failed.Headers.RetryAfter?.ToString());

        pair.StartStandby();
        pair.Promote();
        var etag = await PutWithRetry(server, "carts/in-flight", "Cart", body: """{"v":1}""");
        var again = await PutWithRetry(server, "carts/in-flight", "Cart", body: """{"v":1}""");

        Assert.Equal(etag, again); // the second retry found the first stored (409) and wrote nothing
        using var carts = JsonDocument.Parse(await server.Client.GetStringAsync(
            "/indexes/Raven/DocumentsByEntityName?query=Tag:Cart&pageSize=0&waitForNonStaleResults=true&timeout=25"));
        Assert.Equal(2, carts.RootElement.GetProperty("TotalResults").GetInt32());
    }

    /// <summary>
    /// The documented retry rule for one new document: PUT with <c>If-None-Match: *</c>; on <c>storage-unavailable</c>
    /// the same again; a 409 on a retry means an earlier attempt was stored. Returns the document's etag.
    /// </summary>
    private static async Task<long> PutWithRetry(TestServer server, string key, string entity, string? body = null)
    {
        body ??= $$"""{"key":"{{key}}"}""";
        var waited = Stopwatch.StartNew();
        while (true)
        {
            var request = new HttpRequestMessage(HttpMethod.Put, "/docs/" + key) { Content = TestServer.Json(body) };
            request.Headers.Add("Raven-Entity-Name", entity);
            request.Headers.TryAddWithoutValidation("If-None-Match", "*");
            var response = await server.Client.SendAsync(request);
            if (response.StatusCode == HttpStatusCode.Created)
                return long.Parse(response.Headers.ETag!.Tag.Trim('"'), System.Globalization.CultureInfo.InvariantCulture);
            if (response.StatusCode == HttpStatusCode.Conflict)
            {
                var stored = await server.Client.GetAsync("/docs/" + key);
                Assert.Equal(body, await stored.Content.ReadAsStringAsync());
                return long.Parse(stored.Headers.ETag!.Tag.Trim('"'), System.Globalization.CultureInfo.InvariantCulture);
            }
            Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
            Assert.True(waited.Elapsed < ResumeLimit + TimeSpan.FromSeconds(20), $"{key}: still unavailable after {waited.Elapsed}");
            await Task.Delay(TimeSpan.FromMilliseconds(50)); // a retry loop's pause
        }
    }

    private async Task FailOver(bool synchronous, int writesAfterPromotion, int writesBeforeFailure = 300)
    {
        using var pair = TestPostgresPair.Start(synchronous);
        string[] args = ["--engine", "postgres", "--connection-string", pair.FailoverConnectionString];
        await using var first = await TestServer.StartAsync(args);
        await using var second = await TestServer.StartAsync(args);
        const string query = "/indexes/Raven/DocumentsByEntityName?query=Tag:Cart&pageSize=0&waitForNonStaleResults=true&timeout=25";
        await second.Client.GetStringAsync(query); // the index exists and tails from the start

        var clock = Stopwatch.StartNew();
        var log = new WriteLog(clock);
        using var stop = new CancellationTokenSource();
        var writers = new List<Task>();
        foreach (var (server, name) in new[] { (first, "a"), (second, "b") })
        {
            for (var w = 0; w < 2; w++)
                writers.Add(WriteUntilStopped(server, $"{name}{w}", log, stop.Token));
        }

        var lag = Task.Run(() => pair.SampleReplicationLag(stop.Token));
        await WaitFor(() => log.Acknowledged.Count >= writesBeforeFailure, TimeSpan.FromSeconds(120), "writes before the failure");
        var killedAt = clock.Elapsed;
        pair.KillPrimary();
        var replication = await lag;
        var ackedBeforeKill = log.Acknowledged.Count;
        // Every writer has met the failure before the promotion, so the resume time below is the failover's, not a lucky write.
        await WaitFor(() => log.WritersFailed.Count == writers.Count, TimeSpan.FromSeconds(30), "every writer to see the failure");
        var promoting = clock.Elapsed;
        pair.Promote();
        var promotedAt = clock.Elapsed;
        var ackedAtPromotion = log.Acknowledged.Count;
        await WaitFor(() => log.Acknowledged.Count >= ackedAtPromotion + writesAfterPromotion, TimeSpan.FromSeconds(60), "writes after the promotion");
        await stop.CancelAsync();
        await Task.WhenAll(writers);

        var firstAfter = log.Acknowledged.Values.Where(a => a.At > promotedAt).Min(a => a.At);
        var resumedIn = firstAfter - promotedAt;
        output.WriteLine($"{(synchronous ? "synchronous" : "asynchronous")} standby: {ackedBeforeKill} writes acknowledged before the kill, " +
            $"promotion took {(promotedAt - promoting).TotalMilliseconds:F0} ms, first write acknowledged {resumedIn.TotalMilliseconds:F0} ms after it; " +
            $"{log.Unavailable} storage-unavailable answers ({log.OutcomeUnknown} with outcomeUnknown), {log.ResolvedByConflict} retries found their first attempt stored (409); " +
            $"while writing, the standby's flush lag (pg_stat_replication) was at most {replication.MaxFlushLag.TotalMilliseconds:F2} ms, {replication.MaxBytesBehind} bytes of WAL, over {replication.Samples} samples");
        Assert.True(resumedIn < ResumeLimit, $"writes resumed {resumedIn} after the promotion");
        Assert.True(log.Unavailable > 0, "no write met the failure: the test did not test a failover");
        Assert.Empty(log.Unexpected);

        // What the new primary holds, read straight from PostgreSQL: every etag once, in order, without a gap (the
        // etag-tailing check), and each acknowledged write with the content it was acknowledged with.
        var stored = ReadAllInEtagOrder(pair.StandbyConnectionString);
        var lost = log.Acknowledged.Where(a => !stored.ContainsKey(a.Key)).OrderBy(a => a.Value.At).ToList();
        foreach (var (key, ack) in log.Acknowledged.Where(a => stored.ContainsKey(a.Key)))
            Assert.Equal(ack.Body, Encoding.UTF8.GetString(stored[key].DataJson.Span));
        // Nothing is stored that no writer was told about, except a write whose answer was lost with the primary.
        Assert.All(stored.Keys.Where(k => k.StartsWith("carts/", StringComparison.Ordinal)), k => Assert.True(log.Acknowledged.ContainsKey(k) || log.InDoubt.ContainsKey(k), $"{k} stored but never sent"));

        if (synchronous)
        {
            Assert.Empty(lost);
        }
        else
        {
            var window = lost.Count == 0 ? TimeSpan.Zero : killedAt - lost[0].Value.At;
            output.WriteLine($"asynchronous standby: {lost.Count} of {ackedBeforeKill} acknowledged writes lost; the oldest was acknowledged {window.TotalMilliseconds:F1} ms before the kill");
        }

        if (lost.Count == 0)
        {
            // Both servers' caches and indexes agree with what is stored: each document served as stored, and the
            // index counts every cart once.
            foreach (var server in new[] { first, second })
            {
                foreach (var (key, document) in stored.Where(s => s.Key.StartsWith("carts/", StringComparison.Ordinal)).Take(200))
                    Assert.Equal(Encoding.UTF8.GetString(document.DataJson.Span), await server.Client.GetStringAsync("/docs/" + key));
                // (The wait's timeout, below the client's 30 s, is for a loaded machine: the index has thousands to catch up.)
                var answer = await server.Client.GetAsync(query);
                var body = await answer.Content.ReadAsStringAsync();
                Assert.True(answer.IsSuccessStatusCode, $"the query after the failover answered {(int)answer.StatusCode}: {body}");
                using var result = JsonDocument.Parse(body);
                Assert.Equal(stored.Count, result.RootElement.GetProperty("TotalResults").GetInt32());
            }
        }
    }

    /// <summary>
    /// Every document of the database, read by etag from the start by a store of its own (as an indexer tails): each
    /// key once, etags 1, 2, 3... without a gap.
    /// </summary>
    private static Dictionary<string, Document> ReadAllInEtagOrder(string connectionString)
    {
        var folder = Path.Combine(Path.GetTempPath(), "ravenlite-failover-" + Guid.NewGuid().ToString("N"));
        try
        {
            using var store = DocumentStore.Open(new StorageOptions
            {
                DataDirectory = folder,
                Engine = StorageEngineKind.Postgres,
                ConnectionString = connectionString,
            });
            var stored = new Dictionary<string, Document>(StringComparer.Ordinal);
            long last = 0;
            while (store.GetDocumentsAfterEtag(last, 1024, addToCache: false) is { Count: > 0 } page)
            {
                foreach (var document in page)
                {
                    Assert.True(stored.TryAdd(document.Key, document), $"{document.Key} stored twice");
                    Assert.Equal(last + 1, document.Etag);
                    last = document.Etag;
                }
            }
            return stored;
        }
        finally
        {
            if (Directory.Exists(folder))
                Directory.Delete(folder, recursive: true);
        }
    }

    /// <summary>
    /// Puts carts/{writer}-{i} (i = 0, 1, ...) with <c>If-None-Match: *</c> until stopped. On <c>storage-unavailable</c>
    /// it follows the documented retry rule: the same put again, with the same header, until it is stored or refused
    /// with a 409, which means an earlier attempt was stored (the document then holds this write's content).
    /// </summary>
    private static async Task WriteUntilStopped(TestServer server, string writer, WriteLog log, CancellationToken stop)
    {
        await Task.Yield();
        for (var i = 0; !stop.IsCancellationRequested; i++)
        {
            var key = $"carts/{writer}-{i}";
            var body = $$"""{"writer":"{{writer}}","i":{{i}}}""";
            var attempts = 0;
            while (true)
            {
                attempts++;
                HttpResponseMessage response;
                try
                {
                    var request = new HttpRequestMessage(HttpMethod.Put, "/docs/" + key) { Content = TestServer.Json(body) };
                    request.Headers.Add("Raven-Entity-Name", "Cart");
                    request.Headers.TryAddWithoutValidation("If-None-Match", "*");
                    response = await server.Client.SendAsync(request, CancellationToken.None);
                }
                catch (HttpRequestException ex)
                {
                    log.Unexpected.Add($"{key}: {ex.Message}");
                    return;
                }
                if (response.StatusCode == HttpStatusCode.Created)
                {
                    log.Acknowledge(key, body);
                    break;
                }
                var problem = await response.Content.ReadAsStringAsync(CancellationToken.None);
                if (response.StatusCode == HttpStatusCode.ServiceUnavailable && problem.Contains("\"storage-unavailable\"", StringComparison.Ordinal))
                {
                    log.Failed(writer, outcomeUnknown: problem.Contains("\"outcomeUnknown\":true", StringComparison.Ordinal), key);
                    await Task.Delay(TimeSpan.FromMilliseconds(50), CancellationToken.None); // a retry loop's pause, not a wait for an outcome
                    continue;
                }
                if (response.StatusCode == HttpStatusCode.Conflict && attempts > 1)
                {
                    // The retry rule: an earlier attempt was stored. It must be this write, not another's.
                    var stored = await server.Client.GetStringAsync("/docs/" + key, CancellationToken.None);
                    if (stored != body)
                        log.Unexpected.Add($"{key}: the 409 after a retry found {stored}");
                    log.ResolvedByConflictOnce();
                    log.Acknowledge(key, body);
                    break;
                }
                log.Unexpected.Add($"{key}: {(int)response.StatusCode} {problem}");
                return;
            }
        }
    }

    private static async Task WaitFor(Func<bool> condition, TimeSpan timeout, string what)
    {
        var waited = Stopwatch.StartNew();
        while (!condition())
        {
            if (waited.Elapsed > timeout)
                throw new TimeoutException($"gave up waiting for {what} after {timeout}");
            await Task.Delay(10);
        }
    }

    private sealed class WriteLog(Stopwatch clock)
    {
        private int _unavailable;
        private int _outcomeUnknown;
        private int _resolvedByConflict;

        public ConcurrentDictionary<string, (TimeSpan At, string Body)> Acknowledged { get; } = new(StringComparer.Ordinal);

        /// <summary>Keys whose commit may have been stored without an answer (outcomeUnknown).</summary>
        public ConcurrentDictionary<string, bool> InDoubt { get; } = new(StringComparer.Ordinal);

        public ConcurrentDictionary<string, bool> WritersFailed { get; } = new(StringComparer.Ordinal);

        public ConcurrentBag<string> Unexpected { get; } = [];

        public int Unavailable => Volatile.Read(ref _unavailable);

        public int OutcomeUnknown => Volatile.Read(ref _outcomeUnknown);

        public int ResolvedByConflict => Volatile.Read(ref _resolvedByConflict);

        public void Acknowledge(string key, string body)
        {
            if (!Acknowledged.TryAdd(key, (clock.Elapsed, body)))
                Unexpected.Add($"{key} acknowledged twice");
        }

        public void Failed(string writer, bool outcomeUnknown, string key)
        {
            Interlocked.Increment(ref _unavailable);
            WritersFailed.TryAdd(writer, true);
            if (outcomeUnknown)
            {
                Interlocked.Increment(ref _outcomeUnknown);
                InDoubt.TryAdd(key, true);
            }
        }

        public void ResolvedByConflictOnce() => Interlocked.Increment(ref _resolvedByConflict);
    }
}
