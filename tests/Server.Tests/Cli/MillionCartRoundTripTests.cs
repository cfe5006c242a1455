using static RavenLite.Server.Tests.Cli.TransferFixtures;

namespace RavenLite.Server.Tests.Cli;

public sealed class MillionCartRoundTripTests : IDisposable
{
    private readonly List<string> _paths = [];

    /// <summary>
    /// 1,000,000 seed carts (some rewritten, some deleted) exported, imported into a new folder and exported again:
    /// the two files are byte for byte the same, so the documents and their etag order are.
    /// </summary>
    [Fact]
    [Trait("Category", "Slow")]
    public async Task A_million_seed_carts_round_trip_with_the_same_documents_in_etag_order()
    {
        var (source, target) = (Track(NewFolder()), Track(NewFolder()));
        var (first, second) = (Track(NewFolder() + ".jsonl"), Track(NewFolder() + ".jsonl"));
        long documents;
        using (var database = Open(source))
        {
            Fill(database, 1_000_000);
            documents = database.GetStatistics().Documents;
        }

        Assert.Equal(0, (await RunAsync("export", "--data-dir", source, first)).ExitCode);
        var import = await RunAsync("import", "--data-dir", target, first);
        Assert.True(import.ExitCode == 0, import.Error);
        Assert.Equal(0, (await RunAsync("export", "--data-dir", target, second)).ExitCode);

        using (var database = Open(target))
            Assert.Equal(documents, database.GetStatistics().Documents);
        Assert.Equal(new FileInfo(first).Length, new FileInfo(second).Length);
        await using var a = File.OpenRead(first);
        await using var b = File.OpenRead(second);
        var (bufferA, bufferB) = (new byte[1 << 16], new byte[1 << 16]);
        long offset = 0;
        int read;
        while ((read = await a.ReadAtLeastAsync(bufferA, bufferA.Length, throwOnEndOfStream: false)) > 0)
        {
            await b.ReadExactlyAsync(bufferB.AsMemory(0, read));
            Assert.True(bufferA.AsSpan(0, read).SequenceEqual(bufferB.AsSpan(0, read)), $"The exports differ within bytes {offset}..{offset + read}.");
            offset += read;
        }
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
