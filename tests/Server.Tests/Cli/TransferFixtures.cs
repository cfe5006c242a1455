using System.Text;
using System.Text.Json;
using RavenLite.Database;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Tests.Cli;

/// <summary>Folders, databases and the tool run in-process, for the export/import tests.</summary>
internal static class TransferFixtures
{
    private static readonly byte[] s_seed = File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "Data", "seed-cart.bson"));

    public static string NewFolder() => Path.Combine(Path.GetTempPath(), "ravenlite-transfer-tests", Guid.NewGuid().ToString("N"));

    public static DocumentDatabase Open(string folder) => new(new DocumentDatabaseOptions { DataDirectory = folder });

    /// <summary>
    /// <paramref name="count"/> seed carts in batches, then every tenth one rewritten and every 50th deleted, so that
    /// etag order differs from key order and the export has to follow etags.
    /// </summary>
    public static void Fill(DocumentDatabase database, int count)
    {
        var metadata = DocumentContent.FromBson(s_seed.AsSpan(0, 33));
        var data = DocumentContent.FromBson(s_seed.AsSpan(33));
        for (var first = 0; first < count; first += 10_000)
        {
            database.Batch([.. Enumerable.Range(first, Math.Min(10_000, count - first))
                .Select(i => BatchCommand.Put($"carts/{i}", data, metadata))]);
        }
        database.Batch([.. Enumerable.Range(0, count / 10).Select(i => BatchCommand.Put($"carts/{i * 10}",
            DocumentContent.FromJson($$"""{"rewritten":{{i}},"note":"ünïcode \"quoted\"\nline"}"""), DocumentContent.FromJson("""{"Raven-Entity-Name":"Other","X-Custom":"yes"}""")))]);
        database.Batch([.. Enumerable.Range(0, count / 50).Select(i => BatchCommand.Delete($"carts/{i * 50 + 3}"))]);
    }

    /// <summary>Every document, oldest first: (key, metadata JSON, data JSON), through the public paging API.</summary>
    public static List<(string Key, string Metadata, string Data)> Snapshot(DocumentDatabase database)
    {
        var all = new List<(string, string, string)>();
        for (var start = 0; ; start += 1000)
        {
            var page = database.GetDocuments(start, 1000);
            all.AddRange(page.Select(d => (d.Key, Encoding.UTF8.GetString(d.MetadataJson.Span), Encoding.UTF8.GetString(d.DataJson.Span))));
            if (page.Count < 1000)
                break;
        }
        all.Reverse();
        return all;
    }

    /// <summary>Runs <c>ravenlite args...</c> in-process; returns the exit code and what it wrote.</summary>
    public static async Task<(int ExitCode, string Output, string Error)> RunAsync(params string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exitCode = await Server.Cli.RavenLiteCommand.RunAsync(args, output, error);
        return (exitCode, output.ToString(), error.ToString());
    }

    public static void Delete(string path)
    {
        if (Directory.Exists(path))
            Directory.Delete(path, recursive: true);
        else if (File.Exists(path))
            File.Delete(path);
    }

    public static string[] Lines(string file) => File.ReadAllLines(file);

    public static JsonElement ParseLine(string line) => JsonDocument.Parse(line).RootElement.Clone();
}
