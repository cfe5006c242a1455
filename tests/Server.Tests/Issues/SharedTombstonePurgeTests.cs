using System.Net;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Database;
using System.Text.Json;
using Npgsql;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Issues;

/// <summary>
/// Issue 31, found by the PostgreSQL map/reduce oracle (<c>SharedPostgresMapReduceTests</c>): a server purged the
/// tombstones of deletes once its own indexes had committed past them, but over a shared PostgreSQL database another
/// server that was stopped (or behind) still needed them; it never learnt of the delete, and its indexes kept the
/// deleted document for good. Now a server over a shared database keeps tombstones for ten minutes after its indexes
/// pass them, and an index that finds tombstones purged past its progress is rebuilt from the documents.
/// </summary>
public sealed class SharedTombstonePurgeTests
{
    [PostgresFact]
    public async Task A_server_stopped_while_another_deletes_and_purges_still_drops_the_deleted_document()
    {
        var databaseKey = TestServer.NewDataDirectory();
        var connectionString = TestPostgres.ForDirectory(databaseKey);
        string[] args = ["--engine", "postgres", "--connection-string", connectionString];
        try
        {
            await using var first = await TestServer.StartAsync(args);
            var second = await TestServer.StartAsync(args);
            const string definition = """{"EntityName":"Tally","Fields":[{"Name":"Colour","Path":"Colour"}],"Reduce":{"GroupBy":["Colour"],"Aggregates":[{"Name":"Count","Function":"Count"}]}}""";
            Assert.True((await first.Client.PutAsync("/indexes/Tallies/ByColour", TestServer.Json(definition))).IsSuccessStatusCode);
            Assert.True((await second.Client.PutAsync("/indexes/Tallies/ByColour", TestServer.Json(definition))).IsSuccessStatusCode);
            for (var i = 0; i < 3; i++)
                Assert.Equal(HttpStatusCode.Created, (await first.PutAsync($"tallies/{i}", """{"Colour":"red"}""", "Tally")).StatusCode);
            Assert.Equal(3, await CountAsync(second));
            var folder = second.DataDirectory;
            second.Client.Dispose();
            await second.App.StopAsync();
            await second.App.DisposeAsync();

            Assert.True((await first.Client.DeleteAsync("/docs/tallies/1")).IsSuccessStatusCode);
            Assert.Equal(2, await CountAsync(first));
            // The first server keeps the tombstone for the other servers for a while; past that it purges it, as here.
            Assert.Equal(1, Tombstones(connectionString));
            first.App.Services.GetRequiredService<DocumentDatabase>().Documents.PurgeTombstones(long.MaxValue);
            Assert.Equal(0, Tombstones(connectionString));

            await using var restarted = await TestServer.StartAsync(args, dataDirectory: folder);
            Assert.Equal(2, await CountAsync(restarted));
        }
        finally
        {
            TestPostgres.DropForDirectory(databaseKey);
        }
    }

    [PostgresFact]
    public async Task A_server_stopped_while_another_overwrites_and_purges_still_drops_the_replaced_version()
    {
        var databaseKey = TestServer.NewDataDirectory();
        var connectionString = TestPostgres.ForDirectory(databaseKey);
        string[] args = ["--engine", "postgres", "--connection-string", connectionString];
        try
        {
            await using var first = await TestServer.StartAsync(args);
            var second = await TestServer.StartAsync(args);
            const string definition = """{"EntityName":"Tally","Fields":[{"Name":"Colour","Path":"Colour"}]}""";
            Assert.True((await first.Client.PutAsync("/indexes/Tallies/ByColour", TestServer.Json(definition))).IsSuccessStatusCode);
            Assert.True((await second.Client.PutAsync("/indexes/Tallies/ByColour", TestServer.Json(definition))).IsSuccessStatusCode);
            for (var i = 0; i < 3; i++)
                Assert.Equal(HttpStatusCode.Created, (await first.PutAsync($"tallies/{i}", """{"Colour":"red"}""", "Tally")).StatusCode);
            Assert.Equal(3, await MatchesAsync(second, "red"));
            var folder = second.DataDirectory;
            second.Client.Dispose();
            await second.App.StopAsync();
            await second.App.DisposeAsync();

            Assert.True((await first.PutAsync("tallies/1", """{"Colour":"blue"}""", "Tally")).IsSuccessStatusCode);
            Assert.Equal(1, await MatchesAsync(first, "blue"));
            first.App.Services.GetRequiredService<DocumentDatabase>().Documents.PurgeTombstones(long.MaxValue);

            await using var restarted = await TestServer.StartAsync(args, dataDirectory: folder);
            Assert.Equal(2, await MatchesAsync(restarted, "red"));
            Assert.Equal(1, await MatchesAsync(restarted, "blue"));
        }
        finally
        {
            TestPostgres.DropForDirectory(databaseKey);
        }
    }

    private static async Task<long> MatchesAsync(TestServer server, string colour)
    {
        using var body = JsonDocument.Parse(await server.Client.GetStringAsync($"/indexes/Tallies/ByColour?query=Colour:{colour}&waitForNonStaleResults=true"));
        return body.RootElement.GetProperty("TotalResults").GetInt64();
    }

    private static async Task<long> CountAsync(TestServer server)
    {
        using var body = JsonDocument.Parse(await server.Client.GetStringAsync("/indexes/Tallies/ByColour?query=*:*&waitForNonStaleResults=true"));
        return body.RootElement.GetProperty("Results").EnumerateArray().Sum(r => r.GetProperty("Count").GetInt64());
    }

    private static long Tombstones(string connectionString)
    {
        using var connection = new NpgsqlConnection(connectionString);
        connection.Open();
        using var command = new NpgsqlCommand(
            "SELECT count(*) FROM ravenlite_rows r JOIN ravenlite_tables t ON t.id = r.table_id WHERE t.name = 'tombstones'", connection);
        return (long)command.ExecuteScalar()!;
    }
}
