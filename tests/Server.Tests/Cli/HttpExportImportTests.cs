using Microsoft.Extensions.DependencyInjection;
using RavenLite.Database;
using RavenLite.Server.Tests.Infrastructure;
using static RavenLite.Server.Tests.Cli.TransferFixtures;

namespace RavenLite.Server.Tests.Cli;

public sealed class HttpExportImportTests : IDisposable
{
    private readonly List<string> _paths = [];

    [Fact]
    public async Task Export_and_import_over_http_keep_documents_and_etag_order()
    {
        var file = Track(NewFolder() + ".jsonl");
        List<(string, string, string)> expected;
        await using (var source = await TestServer.StartAsync())
        {
            var database = source.App.Services.GetRequiredService<DocumentDatabase>();
            Fill(database, 2500);
            expected = Snapshot(database);
            var export = await RunAsync("export", "--url", source.Address.ToString(), file);
            Assert.True(export.ExitCode == 0, export.Error);
        }
        Assert.Equal(expected.Count, Lines(file).Length);

        await using var target = await TestServer.StartAsync();
        var import = await RunAsync("import", "--url", target.Address.ToString(), file);
        Assert.True(import.ExitCode == 0, import.Error);
        Assert.Equal(expected, Snapshot(target.App.Services.GetRequiredService<DocumentDatabase>()));
    }

    [Fact]
    public async Task A_batch_the_server_refuses_names_the_line_and_writes_nothing_of_it()
    {
        var file = Track(NewFolder() + ".jsonl");
        var lines = Enumerable.Range(0, 1500).Select(i => "{\"key\":\"notes/" + i + "\",\"data\":{\"n\":" + i + "}}").ToArray();
        lines[1300] = "{\"key\":\"" + new string('k', 300) + "\",\"data\":{}}";
        await File.WriteAllLinesAsync(file, lines);
        await using var server = await TestServer.StartAsync(["--api-key", "transfer-test-key-0123456789"]);

        var denied = await RunAsync("import", "--url", server.Address.ToString(), file);
        Assert.Equal(1, denied.ExitCode);
        Assert.Contains("HTTP 401", denied.Error, StringComparison.Ordinal);

        var import = await RunAsync("import", "--url", server.Address.ToString(), "--api-key", "transfer-test-key-0123456789", file);
        Assert.Equal(1, import.ExitCode);
        Assert.Contains("Line 1301: ", import.Error, StringComparison.Ordinal);
        Assert.Equal(1000, server.App.Services.GetRequiredService<DocumentDatabase>().GetStatistics().Documents);
    }

    [Fact]
    public async Task Export_from_a_server_that_is_not_there_fails_saying_so_and_leaves_no_file()
    {
        var file = Track(NewFolder() + ".jsonl");
        var export = await RunAsync("export", "--url", "http://127.0.0.1:1/", file);
        Assert.Equal(1, export.ExitCode);
        Assert.Contains("Cannot reach http://127.0.0.1:1/", export.Error, StringComparison.Ordinal);
        Assert.False(File.Exists(file));
        Assert.False(File.Exists(file + ".partial"));
    }

    private string Track(string path)
    {
        _paths.Add(path);
        return path;
    }

    public void Dispose()
    {
        foreach (var path in _paths)
            Delete(path);
    }
}
