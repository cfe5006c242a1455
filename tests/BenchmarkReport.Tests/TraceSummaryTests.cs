namespace RavenLite.BenchmarkReport.Tests;

public sealed class TraceSummaryTests
{
    // Frames: 0 Main, 1 WarmCache, 2 Query, 3 Lookup, 4 Other. One thread, times in milliseconds:
    // Main [0, 20): Other [1, 3); WarmCache [4, 16): Query [5, 13): Lookup [6, 9), Lookup again [10, 12).
    private const string Evented = """
        {"shared": {"frames": [{"name": "App!Main"}, {"name": "Bench!SeedQueryBenchmarks.WarmCache()"},
                               {"name": "Db!Query"}, {"name": "Db!Lookup"}, {"name": "App!Other"}]},
         "profiles": [{"type": "evented", "name": "Thread (1)", "unit": "milliseconds", "startValue": 0, "endValue": 20,
           "events": [{"type": "O", "frame": 0, "at": 0}, {"type": "O", "frame": 4, "at": 1}, {"type": "C", "frame": 4, "at": 3},
                      {"type": "O", "frame": 1, "at": 4}, {"type": "O", "frame": 2, "at": 5},
                      {"type": "O", "frame": 3, "at": 6}, {"type": "C", "frame": 3, "at": 9},
                      {"type": "O", "frame": 3, "at": 10}, {"type": "C", "frame": 3, "at": 12},
                      {"type": "C", "frame": 2, "at": 13}, {"type": "C", "frame": 1, "at": 16}, {"type": "C", "frame": 0, "at": 20}]}]}
        """;

    [Fact]
    public void Only_time_under_the_root_counts_and_each_span_goes_to_the_top_frame()
    {
        var summary = TraceSummary.Read(Evented, "WarmCache");

        Assert.Equal(12, summary.RootMilliseconds, 6);
        Assert.Equal(["Db!Lookup", "WarmCache", "Db!Query"], summary.Frames.Select(f => f.Name.Contains("WarmCache") ? "WarmCache" : f.Name).ToArray());
        Assert.Equal(5, Frame(summary, "Db!Lookup").SelfMilliseconds, 6);
        Assert.Equal(3, Frame(summary, "Db!Query").SelfMilliseconds, 6);
        Assert.Equal(8, Frame(summary, "Db!Query").TotalMilliseconds, 6);
        Assert.Equal(4, Frame(summary, "Bench!SeedQueryBenchmarks.WarmCache()").SelfMilliseconds, 6);
        Assert.Equal(12, Frame(summary, "Bench!SeedQueryBenchmarks.WarmCache()").TotalMilliseconds, 6);
        Assert.DoesNotContain(summary.Frames, f => f.Name is "App!Main" or "App!Other");
    }

    [Fact]
    public void Self_times_add_up_to_the_root_time()
    {
        var summary = TraceSummary.Read(Evented, "WarmCache");

        Assert.Equal(summary.RootMilliseconds, summary.Frames.Sum(f => f.SelfMilliseconds), 6);
        Assert.All(summary.Frames, f => Assert.InRange(f.SelfMilliseconds, 0, f.TotalMilliseconds));
    }

    [Fact]
    public void Sampled_profiles_weigh_each_sample()
    {
        const string sampled = """
            {"shared": {"frames": [{"name": "Root"}, {"name": "Leaf"}, {"name": "Elsewhere"}]},
             "profiles": [{"type": "sampled", "name": "t", "unit": "milliseconds", "startValue": 0, "endValue": 9,
               "samples": [[0, 1], [0], [2], [0, 1]], "weights": [2, 1, 5, 3]}]}
            """;

        var summary = TraceSummary.Read(sampled, "Root");

        Assert.Equal(6, summary.RootMilliseconds, 6);
        Assert.Equal(5, Frame(summary, "Leaf").SelfMilliseconds, 6);
        Assert.Equal(6, Frame(summary, "Root").TotalMilliseconds, 6);
    }

    [Fact]
    public void Time_kind_leaves_are_charged_to_the_frame_under_them()
    {
        const string sampled = """
            {"shared": {"frames": [{"name": "Bench!WarmCache()"}, {"name": "Lmdb!mdb_get"}, {"name": "CPU_TIME"}, {"name": "UNMANAGED_CODE_TIME"}]},
             "profiles": [{"type": "sampled", "name": "t", "unit": "milliseconds", "startValue": 0, "endValue": 4,
               "samples": [[0, 1, 3], [0, 2]], "weights": [3, 1]}]}
            """;

        var summary = TraceSummary.Read(sampled, "WarmCache");

        Assert.Equal(3, Frame(summary, "Lmdb!mdb_get").SelfMilliseconds, 6);
        Assert.Equal(1, Frame(summary, "Bench!WarmCache()").SelfMilliseconds, 6);
        Assert.DoesNotContain(summary.Frames, f => f.Name.EndsWith("_TIME", StringComparison.Ordinal));
    }

    [Fact]
    public void A_root_found_nowhere_gives_no_time()
    {
        var summary = TraceSummary.Read(Evented, "NoSuchFrame");

        Assert.Equal(0, summary.RootMilliseconds);
        Assert.Empty(summary.Frames);
    }

    [Fact]
    public void The_table_gives_shares_of_the_root_time()
    {
        var table = TraceSummaryTable.Render(TraceSummary.Read(Evented, "WarmCache"), 2);

        Assert.Contains("| 41.7% | 41.7% | `Db!Lookup` |", table, StringComparison.Ordinal);
        Assert.Contains("| 33.3% | 100.0% | `Bench!SeedQueryBenchmarks.WarmCache()` |", table, StringComparison.Ordinal);
        Assert.DoesNotContain("Db!Query", table, StringComparison.Ordinal);
    }

    private static FrameTime Frame(TraceSummary summary, string name) => Assert.Single(summary.Frames, f => f.Name == name);
}
