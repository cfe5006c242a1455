using RavenLite.Storage.CrashWriter;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using Xunit.Abstractions;

namespace RavenLite.Storage.Tests.Store;

/// <summary>
/// A child process writes batches and reports each acknowledged one; it is killed with SIGKILL at random
/// moments. Every acknowledged batch must be whole after reopening, and no batch may be partial.
/// </summary>
public sealed class CrashTests(ITestOutputHelper output) : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [EngineTheory]
    public void Acknowledged_batches_survive_SIGKILL_at_10_random_moments(StorageEngineKind engine) => KillRepeatedly(engine, 10);

    [EngineTheory]
    [Trait("Category", "Slow")]
    public void Acknowledged_batches_survive_SIGKILL_at_50_random_moments(StorageEngineKind engine) => KillRepeatedly(engine, 50);

    /// <summary>
    /// Bulk-insert shape: runs of <see cref="CrashBatch.PipelineLength"/> batches, all but the last
    /// <see cref="CommitMode.Pipelined"/>, acknowledged when the closing durable commit returns. A kill may drop the
    /// unacknowledged batches of the run it lands in, never an acknowledged one, and never leaves a batch partial.
    /// </summary>
    [EngineTheory]
    public void Pipelined_runs_acknowledged_by_their_durable_commit_survive_SIGKILL_at_10_random_moments(StorageEngineKind engine) =>
        KillRepeatedly(engine, 10, "pipelined");

    [EngineTheory]
    [Trait("Category", "Slow")]
    public void Pipelined_runs_acknowledged_by_their_durable_commit_survive_SIGKILL_at_50_random_moments(StorageEngineKind engine) =>
        KillRepeatedly(engine, 50, "pipelined");

    /// <summary>
    /// Several writers at once, whose commits are grouped: each batch acknowledged when its own call returns must
    /// survive, whichever group it was committed in.
    /// </summary>
    [EngineTheory]
    public void Acknowledged_batches_of_concurrent_writers_survive_SIGKILL_at_10_random_moments(StorageEngineKind engine) =>
        KillRepeatedly(engine, 10, "concurrent");

    private void KillRepeatedly(StorageEngineKind engine, int kills, string mode = "")
    {
        var seed = Environment.TickCount;
        output.WriteLine($"random seed {seed}");
        var random = new Random(seed);
        var acknowledged = new HashSet<int>();
        var nextBatch = 0;

        for (var round = 0; round < kills; round++)
        {
            using (var child = ChildWriter.StartWriting(_dir.Path, nextBatch, engine, mode))
            {
                // Kill after a random number of acknowledgements plus a random sliver of time, so kills land
                // before, during and after commits.
                var waitFor = random.Next(1, 12);
                for (var i = 0; i < waitFor; i++)
                    acknowledged.Add(ParseAck(child.NextLine(TimeSpan.FromSeconds(60))));
                Thread.Sleep(random.Next(0, 15));
                foreach (var line in child.KillAndDrain())
                    acknowledged.Add(ParseAck(line));
            }

            nextBatch = Verify(engine, acknowledged) + 1;
            output.WriteLine($"kill {round + 1}: {acknowledged.Count} batches acknowledged so far, next batch {nextBatch}");
        }
    }

    /// <returns>The highest batch number found in the store.</returns>
    private int Verify(StorageEngineKind engine, HashSet<int> acknowledged)
    {
        using var store = StoreFactory.Open(engine, _dir.Path);
        var byBatch = new Dictionary<int, List<Document>>();
        long last = 0;
        while (store.GetDocumentsAfterEtag(last, 500) is { Count: > 0 } page)
        {
            foreach (var doc in page)
            {
                var batch = doc.Data.GetProperty("batch").GetInt32();
                (byBatch.TryGetValue(batch, out var list) ? list : byBatch[batch] = []).Add(doc);
            }
            last = page[^1].Etag;
        }

        foreach (var batch in acknowledged)
            Assert.True(byBatch.ContainsKey(batch), $"acknowledged batch {batch} is missing");
        foreach (var (batch, docs) in byBatch)
        {
            Assert.True(docs.Count == CrashBatch.Size, $"batch {batch} is partial: {docs.Count} of {CrashBatch.Size} documents");
            foreach (var doc in docs)
            {
                var index = doc.Data.GetProperty("index").GetInt32();
                Assert.Equal(CrashBatch.Key(batch, index), doc.Key);
                Assert.Equal(CrashBatch.Json(batch, index), System.Text.Encoding.UTF8.GetString(doc.DataJson.Span));
            }
        }
        var counts = store.GetCounts();
        Assert.Equal(byBatch.Count * CrashBatch.Size, counts.Documents);
        Assert.Equal(counts.Documents, counts.ByEntityName.GetValueOrDefault("Crash"));
        return byBatch.Count == 0 ? -1 : byBatch.Keys.Max();
    }

    private static int ParseAck(string line)
    {
        Assert.StartsWith("ACK ", line, StringComparison.Ordinal);
        return int.Parse(line.AsSpan(4), System.Globalization.CultureInfo.InvariantCulture);
    }
}
