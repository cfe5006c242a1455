using RavenLite.Database.CrashWriter;
using RavenLite.Indexing;
using Xunit.Abstractions;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>
/// A child process writes mixed puts, deletes and batches to a database whose indexer is running, and is killed with
/// SIGKILL at random moments, during writes and during indexing. After each kill the database reopens: every
/// acknowledged step is there and no step is partial (the stored documents are exactly what a prefix of the steps
/// leaves), and once the indexes catch up, the built-in index and the user index hold every document exactly once,
/// at its current version.
/// </summary>
public sealed class IndexCrashTests(ITestOutputHelper output) : IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }

    [Fact]
    public void Every_acknowledged_write_is_indexed_exactly_once_after_SIGKILL_at_10_random_moments() => KillRepeatedly(10);

    [Fact]
    [Trait("Category", "Slow")]
    public void Every_acknowledged_write_is_indexed_exactly_once_after_SIGKILL_at_100_random_moments() => KillRepeatedly(100);

    private void KillRepeatedly(int kills)
    {
        var seed = Environment.TickCount & 0xFFFFFF;
        output.WriteLine($"random seed {seed}");
        var random = new Random(seed);
        var nextStep = 0;
        for (var round = 0; round < kills; round++)
        {
            var lastAck = -1;
            using (var child = new CrashChild(_directory, seed, nextStep))
            {
                // A random number of acknowledgements plus a random sliver of time, so kills land before, during and
                // after document commits and index commits.
                var acks = random.Next(1, 15);
                for (var i = 0; i < acks; i++)
                    lastAck = Math.Max(lastAck, child.NextAck(TimeSpan.FromSeconds(60)));
                Thread.Sleep(random.Next(0, 40));
                foreach (var ack in child.KillAndDrain())
                    lastAck = Math.Max(lastAck, ack);
            }
            nextStep = Verify(seed, lastAck) + 1;
            output.WriteLine($"kill {round + 1}: acknowledged up to step {lastAck}, stored up to step {nextStep - 1}");
        }
    }

    /// <returns>The last step the stored documents reflect.</returns>
    private int Verify(int seed, int lastAck)
    {
        using var db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _directory, MapSize = 256L << 20 });
        var stored = new Dictionary<string, (int Step, int Index, long Etag)>(StringComparer.OrdinalIgnoreCase);
        long after = 0;
        while (db.Documents.GetDocumentsAfterEtag(after, 500) is { Count: > 0 } page)
        {
            foreach (var document in page)
                stored.Add(document.Key, (document.Data.GetProperty("step").GetInt32(), document.Data.GetProperty("index").GetInt32(), document.Etag));
            after = page[^1].Etag;
        }

        // Steps commit one at a time, in order: what is stored is what steps 0..lastAck leave, or 0..lastAck+1 when the
        // step in flight committed but was not acknowledged. Anything else is a lost write or a partial batch.
        var reached = Matches(CrashSteps.Replay(seed, lastAck), stored) ? lastAck
            : Matches(CrashSteps.Replay(seed, lastAck + 1), stored) ? lastAck + 1
            : throw new Xunit.Sdk.XunitException($"The stored documents are neither what steps 0..{lastAck} nor 0..{lastAck + 1} leave.");

        var builtIn = Walk(db, IndexingDatabase.ByEntityName, "Tag:" + CrashSteps.EntityName, stored.Count);
        var user = Walk(db, CrashSteps.IndexName, "Group:[0 TO 6]", stored.Count);
        Assert.Equal(stored.Keys.Order(StringComparer.OrdinalIgnoreCase), builtIn.Order(StringComparer.OrdinalIgnoreCase));
        Assert.Equal(stored.Keys.Order(StringComparer.OrdinalIgnoreCase), user.Order(StringComparer.OrdinalIgnoreCase));
        // The user index holds each document's current version: its step finds it.
        foreach (var (key, (step, _, _)) in stored.Take(20))
            Assert.Contains(key, Walk(db, CrashSteps.IndexName, $"Step:{step}", count: null), StringComparer.OrdinalIgnoreCase);
        foreach (var stats in db.GetIndexStatistics())
            Assert.Equal(stored.Count, stats.DocumentCount);
        return reached;
    }

    private static bool Matches(Dictionary<string, CrashSteps.Write> expected, Dictionary<string, (int Step, int Index, long Etag)> stored) =>
        expected.Count == stored.Count
        && expected.All(e => stored.TryGetValue(e.Key, out var s) && s.Step == e.Value.Step && s.Index == e.Value.Index);

    /// <summary>Every key the query returns, page by page; each must come once, and the total must be <paramref name="count"/>.</summary>
    private static List<string> Walk(DocumentDatabase db, string index, string query, int? count)
    {
        var keys = new List<string>();
        string? continuation = null;
        do
        {
            var page = db.Query(index, new IndexQuery
            {
                Query = query, PageSize = 100, Continuation = continuation, WaitForNonStaleResults = true, Timeout = TimeSpan.FromSeconds(60),
            });
            if (count is { } total)
                Assert.Equal(total, page.TotalResults);
            Assert.Equal(0, page.SkippedResults);
            keys.AddRange(page.Results.Select(d => d.Key));
            continuation = page.Continuation;
        }
        while (continuation is not null);
        Assert.Equal(keys.Count, keys.Distinct(StringComparer.OrdinalIgnoreCase).Count());
        return keys;
    }
}
