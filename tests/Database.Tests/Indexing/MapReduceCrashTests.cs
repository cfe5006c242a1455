using RavenLite.Database.CrashWriter;
using RavenLite.Indexing;
using Xunit.Abstractions;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>
/// A child process writes puts, deletes and batches (documents moving between groups among them) under a map/reduce
/// index, and is killed with SIGKILL at random moments, reducing included. After each kill the database reopens and,
/// once the index catches up, every group's Count, Sum, Min, Max and Average equal LINQ's over the stored documents:
/// nothing was lost or counted twice.
/// </summary>
public sealed class MapReduceCrashTests(ITestOutputHelper output) : IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }

    [Fact]
    public void Map_reduce_totals_equal_LINQ_over_the_stored_documents_after_SIGKILL_at_8_random_moments()
    {
        var seed = Environment.TickCount & 0xFFFFFF;
        output.WriteLine($"random seed {seed}");
        var random = new Random(seed);
        var nextStep = 0;
        for (var round = 0; round < 8; round++)
        {
            using (var child = new CrashChild(_directory, seed, nextStep, mapReduce: true))
            {
                var acks = random.Next(1, 20);
                for (var i = 0; i < acks; i++)
                    nextStep = Math.Max(nextStep, child.NextAck(TimeSpan.FromSeconds(60)) + 1);
                // A random sliver of time, so the kill lands during writes, map/reduce batches and index commits.
                Thread.Sleep(random.Next(0, 40));
                foreach (var ack in child.KillAndDrain())
                    nextStep = Math.Max(nextStep, ack + 1);
            }
            var groups = Verify();
            output.WriteLine($"kill {round + 1}: next step {nextStep}, {groups} groups right");
        }
    }

    private int Verify()
    {
        using var db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _directory, MapSize = 256L << 20 });
        var steps = new List<(long Group, long Step)>();
        long after = 0;
        while (db.Documents.GetDocumentsAfterEtag(after, 500) is { Count: > 0 } page)
        {
            foreach (var document in page)
                steps.Add((document.Data.GetProperty("group").GetInt64(), document.Data.GetProperty("step").GetInt64()));
            after = page[^1].Etag;
        }
        var expected = steps.GroupBy(s => s.Group).ToDictionary(g => g.Key,
            g => (Count: (long)g.Count(), Sum: (decimal)g.Sum(s => s.Step), Min: (decimal)g.Min(s => s.Step), Max: (decimal)g.Max(s => s.Step),
                  Average: g.Sum(s => (decimal)s.Step) / g.Count()));

        var result = db.Query(CrashSteps.MapReduceIndexName, new IndexQuery
        {
            Query = "*:*", PageSize = 100, WaitForNonStaleResults = true, Timeout = TimeSpan.FromSeconds(60),
        });

        var actual = result.Results.ToDictionary(r => r.Data.GetProperty("Group").GetInt64(), r => (
            Count: r.Data.GetProperty("Count").GetInt64(), Sum: r.Data.GetProperty("Sum").GetDecimal(), Min: r.Data.GetProperty("Min").GetDecimal(),
            Max: r.Data.GetProperty("Max").GetDecimal(), Average: r.Data.GetProperty("Average").GetDecimal()));
        Assert.Equal(expected.Keys.Order(), actual.Keys.Order());
        foreach (var (group, totals) in expected)
        {
            // Average to 20 places: a decimal quotient is rounded at 28 digits.
            Assert.Equal(totals with { Average = 0 }, actual[group] with { Average = 0 });
            Assert.InRange(actual[group].Average - totals.Average, -1e-20m, 1e-20m);
        }
        return expected.Count;
    }
}
