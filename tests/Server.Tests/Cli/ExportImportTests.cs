using RavenLite.Database;
using static RavenLite.Server.Tests.Cli.TransferFixtures;

namespace RavenLite.Server.Tests.Cli;

public sealed class ExportImportTests : IDisposable
{
    private readonly List<string> _paths = [];

    [Fact]
    public async Task Export_then_import_into_a_new_folder_gives_the_same_documents_in_etag_order()
    {
        var (source, target, file) = (Track(NewFolder()), Track(NewFolder()), Track(NewFolder() + ".jsonl"));
        List<(string, string, string)> expected;
        using (var database = Open(source))
        {
            Fill(database, 3000);
            expected = Snapshot(database);
        }

        var export = await RunAsync("export", "--data-dir", source, file);
        Assert.True(export.ExitCode == 0, export.Error);
        Assert.Contains($"Exported {expected.Count:N0} documents", export.Output, StringComparison.Ordinal);
        var lines = Lines(file);
        Assert.Equal(expected.Count, lines.Length);
        Assert.Equal("carts/1", ParseLine(lines[0]).GetProperty("key").GetString());
        Assert.Equal("yes", ParseLine(lines[^1]).GetProperty("metadata").GetProperty("X-Custom").GetString());

        var import = await RunAsync("import", "--data-dir", target, file);
        Assert.True(import.ExitCode == 0, import.Error);
        using (var untouched = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = target, DeferIndexing = true }))
            Assert.Equal(0, untouched.GetIndexStatistics("Raven/DocumentsByEntityName").LastIndexedEtag); // the import left indexing to the next open
        using var imported = Open(target);
        Assert.Equal(expected, Snapshot(imported));
        Assert.Equal(expected.Count, imported.GetStatistics().Documents);
        var caughtUp = imported.Query("Raven/DocumentsByEntityName",
            new IndexQuery { Query = "Tag:Item", PageSize = 0, WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(2) });
        Assert.Equal(expected.Count(document => document.Item2.Contains("\"Raven-Entity-Name\":\"Item\"", StringComparison.Ordinal)), caughtUp.TotalResults);
        Assert.True(caughtUp.TotalResults > 0);
    }

    [Fact]
    public async Task Lines_larger_than_a_batch_buffer_are_imported_whole()
    {
        var (target, file) = (Track(NewFolder()), Track(NewFolder() + ".jsonl"));
        // 1,200 lines of ~3 KB: the first batch holds about 3 MB of lines, past the 1 MB its buffer starts with.
        var text = new string('t', 3000);
        var lines = Enumerable.Range(0, 1200).Select(i => "{\"key\":\"notes/" + i + "\",\"data\":{\"n\":" + i + ",\"text\":\"" + text + "\"}}");
        await File.WriteAllLinesAsync(file, lines);

        var import = await RunAsync("import", "--data-dir", target, file);

        Assert.True(import.ExitCode == 0, import.Error);
        using var database = Open(target);
        Assert.Equal(1200, database.GetStatistics().Documents);
        foreach (var i in new[] { 0, 999, 1000, 1199 })
        {
            var data = database.Get("notes/" + i)!.Data;
            Assert.Equal(i, data.GetProperty("n").GetInt32());
            Assert.Equal(text, data.GetProperty("text").GetString());
        }
    }

    [Fact]
    public async Task A_bad_line_is_reported_with_its_number_and_nothing_of_its_batch_is_written()
    {
        var (target, file) = (Track(NewFolder()), Track(NewFolder() + ".jsonl"));
        var lines = Enumerable.Range(0, 2500).Select(i => "{\"key\":\"notes/" + i + "\",\"metadata\":{\"Raven-Entity-Name\":\"Note\"},\"data\":{\"n\":" + i + "}}").ToArray();
        lines[1501] = """{"key":"notes/bad","data":[1,2]}""";
        await File.WriteAllLinesAsync(file, lines);

        var import = await RunAsync("import", "--data-dir", target, file);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("Line 1502: \"data\" must be a JSON object.", import.Error, StringComparison.Ordinal);
        Assert.Contains("Nothing from its batch (lines 1001-2000, 1000 documents) was written", import.Error, StringComparison.Ordinal);
        // The first batch was being written while the second was read: it counts once it is in.
        Assert.Contains("1,000 documents before it were imported", import.Error, StringComparison.Ordinal);
        using var database = Open(target);
        Assert.Equal(1000, database.GetStatistics().Documents);
        Assert.NotNull(database.Get("notes/999"));
        Assert.Null(database.Get("notes/1000"));
    }

    [Fact]
    public async Task A_document_the_database_refuses_is_reported_with_its_line_and_its_batch_is_not_written()
    {
        var (target, file) = (Track(NewFolder()), Track(NewFolder() + ".jsonl"));
        var lines = Enumerable.Range(0, 1200).Select(i => "{\"key\":\"notes/" + i + "\",\"data\":{\"n\":" + i + "}}").ToList();
        lines[1100] = "{\"key\":\"" + new string('k', 300) + "\",\"data\":{}}";
        lines.Insert(5, "");
        await File.WriteAllLinesAsync(file, lines);

        var import = await RunAsync("import", "--data-dir", target, file);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("Line 1102: ", import.Error, StringComparison.Ordinal);
        Assert.Contains("255", import.Error, StringComparison.Ordinal);
        using var database = Open(target);
        Assert.Equal(1000, database.GetStatistics().Documents);
    }

    [Theory]
    [InlineData(new[] { "export", "out.jsonl" }, "Give either --data-dir")]
    [InlineData(new[] { "import", "--data-dir", "d", "--url", "http://127.0.0.1:1", "in.jsonl" }, "Give either --data-dir")]
    [InlineData(new[] { "import", "--data-dir", "d" }, "Name the file to read")]
    [InlineData(new[] { "export", "--data-dir", "d", "--pages", "out.jsonl" }, "Unknown option '--pages'")]
    [InlineData(new[] { "export", "--url", "ftp://x", "out.jsonl" }, "--url must be an http://")]
    [InlineData(new[] { "export", "--url", "http://127.0.0.1:1", "--engine", "postgres", "out.jsonl" }, "--engine and --connection-string go with --data-dir")]
    [InlineData(new[] { "import", "--data-dir", "d", "--engine", "postgres", "--connection-string" }, "--connection-string")]
    public async Task A_bad_command_line_exits_2_saying_what_is_wrong(string[] args, string message)
    {
        var run = await RunAsync(args);
        Assert.Equal(2, run.ExitCode);
        Assert.Contains(message, run.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Help_describes_the_verbs_and_no_verb_starts_the_server()
    {
        var help = await RunAsync("--help");
        var export = await RunAsync("export", "--help");
        Assert.Equal(0, help.ExitCode);
        foreach (var verb in new[] { "serve", "export", "import", "backup", "restore", "compact" })
            Assert.Matches($@"(?m)^\s+{verb}\b", help.Output);
        Assert.Contains("ravenlite export [<file>", export.Output, StringComparison.Ordinal);
        Assert.Contains("--url <url>", export.Output, StringComparison.Ordinal);
        Assert.Equal("serve", Server.Cli.RavenLiteCommand.VerbOf([]));
        Assert.Equal("serve", Server.Cli.RavenLiteCommand.VerbOf(["--port", "9000"]));
        Assert.Equal("serve", Server.Cli.RavenLiteCommand.VerbOf(["serve", "--port", "9000"]));
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
