using System.Net;
using RavenLite.Server.Tests.Indexes;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Scaling;

/// <summary>
/// Map/reduce on PostgreSQL: two servers over one database, each with its own data folder and so its own reduce state
/// (map entries and group results in its own Lucene index). Writes go through either; right after each, both answer
/// every group equal to SQLite's GROUP BY over the same orders (<see cref="MapReduceSqliteOracleTests"/>), and so does
/// a server restarted over its folder after missing writes.
/// </summary>
public sealed class SharedPostgresMapReduceTests : IAsyncLifetime
{
    private readonly string _databaseKey = TestServer.NewDataDirectory();
    private readonly List<TestServer> _servers = [];

    public async Task InitializeAsync()
    {
        if (TestPostgres.SkipReason is not null)
            return;
        _servers.Add(await StartAsync());
        _servers.Add(await StartAsync());
    }

    private Task<TestServer> StartAsync(string? dataDirectory = null) =>
        TestServer.StartAsync(["--engine", "postgres", "--connection-string", TestPostgres.ForDirectory(_databaseKey)], dataDirectory: dataDirectory);

    public async Task DisposeAsync()
    {
        foreach (var server in _servers)
            await server.DisposeAsync();
        if (TestPostgres.SkipReason is null)
            TestPostgres.DropForDirectory(_databaseKey);
    }

    [PostgresFact]
    public Task Two_servers_keep_their_own_reduce_state_and_both_answer_right_after_writes_through_either() =>
        RunAsync(steps: 30, restartEvery: int.MaxValue);

    // A delete made while the second server is down reaches it from its tombstone, kept for it (Issues/SharedTombstonePurgeTests).
    [PostgresFact]
    public Task A_server_restarted_over_its_folder_after_missing_writes_catches_up_its_reduce_state() =>
        RunAsync(steps: 60, restartEvery: 6);

    private async Task RunAsync(int steps, int restartEvery)
    {
        using var orders = new OracleOrders(seed: 17, keys: 80);
        var random = orders.Random;
        var reduces = Enumerable.Range(0, 2).Select(i => MapReduceSqliteOracleTests.Reduce.Generate(random, $"Oracle/Shared{i}")).ToList();
        foreach (var reduce in reduces)
        {
            // Put through both: the second server may also learn of it from the first's notification; either way one definition.
            foreach (var server in _servers)
                Assert.True((await server.Client.PutAsync("/indexes/" + reduce.Name, TestServer.Json(reduce.Json))).IsSuccessStatusCode);
        }

        for (var step = 0; step < steps; step++)
        {
            if (step > 0 && step % restartEvery == 0)
            {
                // The second server stops, misses writes, and starts again over its own folder: its reduce state catches up.
                var stopped = _servers[1];
                _servers.RemoveAt(1);
                stopped.Client.Dispose();
                await stopped.App.StopAsync();
                await stopped.App.DisposeAsync();
                for (var i = 0; i < 10; i++)
                    await WriteAsync(_servers[0], orders);
                _servers.Add(await StartAsync(stopped.DataDirectory));
            }
            var through = _servers[random.Next(2)];
            for (var i = random.Next(1, 6); i > 0; i--)
                await WriteAsync(through, orders);
            foreach (var reduce in reduces)
            {
                var expected = reduce.Expected(orders);
                for (var s = 0; s < _servers.Count; s++)
                {
                    var groups = await MapReduceSqliteOracleTests.AllAsync(database: null, reduce.Name, _servers[s].Client);
                    try
                    {
                        MapReduceSqliteOracleTests.AssertGroups(reduce, expected, groups, $"server {s + 1}", step);
                    }
                    catch (Xunit.Sdk.XunitException wrong)
                    {
                        // Says whether the server was behind (right a little later) or stays wrong.
                        await Task.Delay(3000);
                        var later = await MapReduceSqliteOracleTests.AllAsync(database: null, reduce.Name, _servers[s].Client);
                        string again;
                        try
                        {
                            MapReduceSqliteOracleTests.AssertGroups(reduce, expected, later, $"server {s + 1}", step);
                            again = "right 3 s later";
                        }
                        catch (Xunit.Sdk.XunitException)
                        {
                            again = "still wrong 3 s later";
                        }
                        throw new Xunit.Sdk.XunitException($"written through server {_servers.IndexOf(through) + 1}; {again}\n{wrong.Message}");
                    }
                }
            }
        }
    }

    private static async Task WriteAsync(TestServer server, OracleOrders orders)
    {
        var (key, json) = orders.Next();
        var response = json is null ? await server.Client.DeleteAsync("/docs/" + key) : await server.PutAsync(key, json, OracleOrders.EntityName);
        Assert.True(response.StatusCode is HttpStatusCode.Created or HttpStatusCode.NoContent or HttpStatusCode.OK, await response.Content.ReadAsStringAsync());
    }
}
