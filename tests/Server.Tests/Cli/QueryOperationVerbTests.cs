using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage.Documents;
using static RavenLite.Server.Tests.Cli.TransferFixtures;

namespace RavenLite.Server.Tests.Cli;

/// <summary>Issue 32: <c>ravenlite patch-by-query</c> and <c>delete-by-query</c>, on a server and on a folder.</summary>
public sealed class QueryOperationVerbTests : IDisposable
{
    private const string Index = """{"Name":"Notes/ByGroup","EntityName":"Note","Fields":[{"Name":"Group","Path":"group"}]}""";
    private readonly List<string> _paths = [];

    public void Dispose() => _paths.ForEach(Delete);

    private string Track(string path)
    {
        _paths.Add(path);
        return path;
    }

    [Fact]
    public async Task Patch_and_delete_by_query_through_a_server_change_exactly_the_matched_documents()
    {
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0"]);
        (await server.Client.PutAsync("/indexes/Notes/ByGroup", new StringContent(Index, System.Text.Encoding.UTF8, "application/json"))).EnsureSuccessStatusCode();
        for (var i = 0; i < 30; i++)
            (await server.PutAsync($"notes/{i}", $$"""{"group":"g{{i % 3}}","n":{{i}}}""", "Note")).EnsureSuccessStatusCode();
        var url = server.Address.ToString();

        var patched = await RunAsync("patch-by-query", "Notes/ByGroup", "--query", "Group:g1", "--patch", """[{"op":"add","path":"/seen","value":true}]""", "--url", url);
        var deleted = await RunAsync("delete-by-query", "Notes/ByGroup", "--query", "Group:g2", "--url", url);

        Assert.True(patched.ExitCode == 0, patched.Error);
        Assert.Contains("Patched 10 of the 10 documents 'Notes/ByGroup' matched.", patched.Output, StringComparison.Ordinal);
        Assert.True(deleted.ExitCode == 0, deleted.Error);
        Assert.Contains("Deleted 10 of the 10 documents 'Notes/ByGroup' matched.", deleted.Output, StringComparison.Ordinal);
        for (var i = 0; i < 30; i++)
        {
            using var response = await server.Client.GetAsync($"/docs/notes/{i}");
            if (i % 3 == 2)
            {
                Assert.Equal(System.Net.HttpStatusCode.NotFound, response.StatusCode);
                continue;
            }
            var document = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;
            Assert.Equal(i % 3 == 1, document.TryGetProperty("seen", out _));
        }
    }

    [Fact]
    public async Task Patch_by_query_on_a_folder_waits_for_the_index_and_reports_refused_documents_as_left_whole()
    {
        var folder = Track(NewFolder());
        using (var database = Open(folder))
        {
            database.PutIndex(RavenLite.Indexing.Definitions.IndexDefinition.FromJson(Index));
            for (var i = 0; i < 20; i++)
                database.Put($"notes/{i}", DocumentContent.FromJson($$"""{"group":"g1","n":{{i}}}"""), DocumentContent.FromJson("""{"Raven-Entity-Name":"Note"}"""));
        }
        var patchFile = Track(Path.GetTempFileName());
        // The test holds for n == 3 only: that document is refused and left as it was; the others get the replace.
        await File.WriteAllTextAsync(patchFile, """[{"op":"test","path":"/n","value":3},{"op":"replace","path":"/n","value":-1}]""");

        var patched = await RunAsync("patch-by-query", "Notes/ByGroup", "--query", "Group:g1", "--patch", patchFile, "--data-dir", folder);

        Assert.True(patched.ExitCode == 0, patched.Error);
        Assert.Contains("Patched 1 of the 20 documents 'Notes/ByGroup' matched; 19 refused, left as they were", patched.Output, StringComparison.Ordinal);
        using var reopened = Open(folder);
        Assert.Equal(-1, reopened.Get("notes/3")!.Data.GetProperty("n").GetInt32());
        Assert.Equal(4, reopened.Get("notes/4")!.Data.GetProperty("n").GetInt32());
    }

    [Theory]
    [InlineData("patch-by-query", "Notes/ByGroup", "--data-dir", "x")]
    [InlineData("delete-by-query", "Notes/ByGroup")]
    [InlineData("delete-by-query", "Notes/ByGroup", "--data-dir", "x", "--url", "http://127.0.0.1:1")]
    public async Task A_verb_missing_what_it_needs_is_a_usage_error(params string[] args)
    {
        var run = await RunAsync(args);
        Assert.Equal(2, run.ExitCode);
    }

    [Fact]
    public async Task A_stale_or_missing_index_on_a_server_is_a_failure_naming_it()
    {
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0"]);
        var run = await RunAsync("delete-by-query", "No/Such", "--url", server.Address.ToString());
        Assert.Equal(1, run.ExitCode);
        Assert.Contains("404", run.Error, StringComparison.Ordinal);
    }
}
