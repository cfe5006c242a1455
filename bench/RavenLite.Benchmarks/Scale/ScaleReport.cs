using System.Diagnostics;
using System.Globalization;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Indexing;

namespace RavenLite.Benchmarks.Scale;

/// <summary>
/// What <c>--scale &lt;documents&gt; [--cache-size-mb &lt;mb&gt;]...</c> asks for: the size of the scale dataset to build or
/// reuse, and the cache limits to measure memory with (each in a process of its own). Without a cache limit named it
/// measures the default cache and 256 MiB.
/// </summary>
internal sealed record ScaleReportOptions(int Documents, IReadOnlyList<long?> CacheSizesMb)
{
    /// <summary>The usage line printed when the arguments are wrong.</summary>
    public const string Usage = "usage: --scale <documents> [--cache-size-mb <mb>|default]...  (documents at least 1000)";

    /// <summary>The cache limits measured when the command line names none: the default and 256 MiB.</summary>
    public static IReadOnlyList<long?> DefaultCacheSizes { get; } = [null, 256];

    /// <summary>Reads the arguments after <c>--scale</c>.</summary>
    /// <exception cref="ArgumentException">The arguments are not <see cref="Usage"/>.</exception>
    public static ScaleReportOptions Parse(IReadOnlyList<string> args)
    {
        if (args.Count == 0 || !int.TryParse(args[0], NumberStyles.None, CultureInfo.InvariantCulture, out var documents)
            || documents < ScaleDataset.Carts)
            throw new ArgumentException(Usage, nameof(args));
        var caches = new List<long?>();
        for (var i = 1; i < args.Count; i += 2)
        {
            if (args[i] != "--cache-size-mb" || i + 1 >= args.Count)
                throw new ArgumentException(Usage, nameof(args));
            caches.Add(args[i + 1] == "default" ? null
                : long.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out var mb) && mb > 0 ? mb
                : throw new ArgumentException(Usage, nameof(args)));
        }
        return new ScaleReportOptions(documents, caches.Count == 0 ? DefaultCacheSizes : caches);
    }
}

/// <summary>
/// The process's memory from <c>/proc/self/status</c>, in KiB: <c>VmRSS</c> is <c>RssAnon</c> (the heaps: the GC's,
/// LMDB's and Lucene's native allocations) plus <c>RssFile</c> (file pages mapped into the process: LMDB's data file
/// and Lucene's memory-mapped index files, which the kernel can drop and read again) plus <c>RssShmem</c>.
/// </summary>
internal sealed record MemorySample(long VmRssKb, long RssAnonKb, long RssFileKb, long RssShmemKb)
{
    /// <summary>Reads the four fields from the text of a <c>/proc/&lt;pid&gt;/status</c> file.</summary>
    /// <exception cref="FormatException">A field is missing.</exception>
    public static MemorySample Parse(string status)
    {
        var fields = status.Split('\n')
            .Select(line => line.Split(':', 2))
            .Where(parts => parts.Length == 2)
            .ToDictionary(parts => parts[0].Trim(), parts => parts[1].Trim());
        long Kb(string name) => fields.TryGetValue(name, out var value) && value.EndsWith(" kB", StringComparison.Ordinal)
            ? long.Parse(value[..^3].Trim(), CultureInfo.InvariantCulture)
            : throw new FormatException($"No {name} in the status text.");
        return new MemorySample(Kb("VmRSS"), Kb("RssAnon"), Kb("RssFile"), Kb("RssShmem"));
    }

    /// <summary>This process's memory now.</summary>
    public static MemorySample Current() => Parse(File.ReadAllText("/proc/self/status"));

    /// <summary>One report line: the four figures in MiB.</summary>
    public string Format(string when) => string.Create(CultureInfo.InvariantCulture,
        $"RSS {when}: VmRSS {VmRssKb / 1024} MiB = RssAnon {RssAnonKb / 1024} MiB + RssFile {RssFileKb / 1024} MiB + RssShmem {RssShmemKb / 1024} MiB");
}

/// <summary>
/// The <c>--scale</c> mode: builds (or reuses) the scale dataset of a given size, reports the build time and the disk
/// size of the data and of the indexes, then for each cache limit starts a fresh process (<c>--scale-measure</c>) that
/// opens the dataset with the dataset's files dropped from the OS page cache first (so its first reads come from
/// disk), times the first point get and queries, runs them warm, pages through every document, and samples its
/// memory after each step (and its highest while paging). The measuring process runs with the server's GC settings. Latencies for the docs come from BenchmarkDotNet (<see cref="TenMillionScaleBenchmarks"/>);
/// the single cold timings here are the ones BenchmarkDotNet cannot repeat.
/// </summary>
internal static class ScaleReport
{
    private const int PageSize = 1024;
    private const int WarmRepetitions = 200;

    /// <summary>Runs the mode; the arguments are those after <c>--scale</c>. Returns the exit code.</summary>
    public static int Run(IReadOnlyList<string> args)
    {
        ScaleReportOptions options;
        try
        {
            options = ScaleReportOptions.Parse(args);
        }
        catch (ArgumentException)
        {
            Console.Error.WriteLine(ScaleReportOptions.Usage);
            return 2;
        }
        var documents = options.Documents;
        Console.WriteLine($"scale report: {documents:N0} documents, {Environment.ProcessorCount} cores, load {LoadAverage()}");
        if (ScaleDataset.BuildTime(documents) is null)
        {
            Console.WriteLine("building the dataset ...");
            ScaleDataset.Open(documents).Dispose();
        }
        var folder = ScaleDataset.Folder(documents);
        Console.WriteLine($"build and index: {ScaleDataset.BuildTime(documents)?.TotalSeconds.ToString("F0", CultureInfo.InvariantCulture) ?? "?"} s (recorded when built)");
        Console.WriteLine($"on disk: LMDB {Mib(FolderBytes(Path.Combine(folder, "lmdb")))} MiB, indexes {Mib(FolderBytes(Path.Combine(folder, "Indexes")))} MiB, in {folder}");
        var exitCode = 0;
        foreach (var cache in options.CacheSizesMb)
        {
            Console.WriteLine();
            Console.WriteLine($"--- cache {(cache is null ? "default" : $"{cache} MiB")}, load {LoadAverage()}");
            Console.WriteLine(DropFromPageCache(folder));
            exitCode = Math.Max(exitCode, RunChild(["--scale-measure", documents.ToString(CultureInfo.InvariantCulture), cache?.ToString(CultureInfo.InvariantCulture) ?? "default"]));
        }
        return exitCode;
    }

    /// <summary>The child process: the arguments after <c>--scale-measure</c> are the documents and the cache (MiB or <c>default</c>).</summary>
    public static int Measure(IReadOnlyList<string> args)
    {
        var documents = int.Parse(args[0], CultureInfo.InvariantCulture);
        long? cacheMb = args[1] == "default" ? null : long.Parse(args[1], CultureInfo.InvariantCulture);
        Console.WriteLine(MemorySample.Current().Format("at start"));

        var io = IoSample.Current();
        var clock = Stopwatch.StartNew();
        using var database = ScaleDataset.Open(documents, cacheMb);
        Console.WriteLine(Timed("open, index caught up", clock.Elapsed, ref io));
        Console.WriteLine($"cache limit: {Mib(database.GetStatistics().Cache.LimitBytes)} MiB");
        var liveAfterOpen = GC.GetTotalMemory(forceFullCollection: true);
        Console.WriteLine($"live GC heap after open: {Mib(liveAfterOpen)} MiB");

        var seed = SeedDataset.SeedQuery;
        var first = new IndexQuery { Query = "*:*", PageSize = PageSize };
        var deep = new IndexQuery { Query = "*:*", Start = documents / 10 * 9, PageSize = PageSize };
        (string Name, Action Run)[] reads =
        [
            ("point get carts/666", () => _ = database.Get(SeedCart.Key) ?? throw new InvalidOperationException("carts/666 missing")),
            ("seed query Tag:Item (1,000 results)", () => SeedDataset.SumCartIds(database.Query(SeedDataset.Index, seed).Results, ScaleDataset.Carts)),
            ("*:* first page of 1024", () => Page(database, first, documents)),
            ("*:* page at 90%", () => Page(database, deep, documents)),
        ];
        Console.WriteLine("first run of each, pages not in the OS page cache (one sample each: a cold read cannot be repeated):");
        foreach (var (name, run) in reads)
        {
            clock.Restart();
            run();
            Console.WriteLine("  " + Timed(name, clock.Elapsed, ref io));
        }
        // What the first reads keep (the index's per-segment arrays among it), apart from garbage: the cache holds ~3,000 documents.
        var liveAfterReads = GC.GetTotalMemory(forceFullCollection: true);
        Console.WriteLine($"live GC heap after the first reads: {Mib(liveAfterReads)} MiB (+{Mib(liveAfterReads - liveAfterOpen)})");
        Console.WriteLine($"warm, median of {WarmRepetitions} (a Stopwatch cross-check; the figures for the docs are BenchmarkDotNet's):");
        foreach (var (name, run) in reads)
        {
            var times = new double[WarmRepetitions];
            for (var i = 0; i < times.Length; i++)
            {
                clock.Restart();
                run();
                times[i] = clock.Elapsed.TotalMicroseconds;
            }
            Array.Sort(times);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {name}: {times[times.Length / 2]:F1} us"));
        }
        Console.WriteLine(MemorySample.Current().Format("after the warm queries"));

        // Reading every document fills the cache to its limit (every document is parsed once) and maps all of LMDB's pages.
        clock.Restart();
        var read = 0L;
        var page = new IndexQuery { Query = "*:*", PageSize = PageSize };
        using var peak = new PeakMemory();
        while (true)
        {
            var result = database.Query(SeedDataset.Index, page);
            read += result.Results.Count;
            if (result.Results.Count < PageSize || result.Continuation is null)
                break;
            page = new IndexQuery { Query = "*:*", PageSize = PageSize, Continuation = result.Continuation };
        }
        Console.WriteLine(Timed($"read all {read:N0} documents by *:* pages", clock.Elapsed, ref io));
        Console.WriteLine($"RssAnon at its highest while reading (sampled every {PeakMemory.IntervalMs} ms): {peak.Stop() / 1024} MiB");
        var cache = database.GetStatistics().Cache;
        Console.WriteLine($"cache: {cache.Entries:N0} entries, {Mib(cache.Bytes)} of {Mib(cache.LimitBytes)} MiB, {cache.Evictions:N0} evictions, {cache.Refused:N0} reads refused (not cached: full and not seen lately)");
        Console.WriteLine(MemorySample.Current().Format("after reading everything"));
        Console.WriteLine($"GC heap {Mib(GC.GetGCMemoryInfo().HeapSizeBytes)} MiB, committed {Mib(GC.GetGCMemoryInfo().TotalCommittedBytes)} MiB");
        Console.WriteLine(GenerationSizes());
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        Console.WriteLine(MemorySample.Current().Format("after a full compacting GC"));
        return read == documents ? 0 : 1;
    }

    /// <summary>Where the heap is, after the last collection of any kind: each generation's size and free space, and how many of each kind ran.</summary>
    private static string GenerationSizes()
    {
        var info = GC.GetGCMemoryInfo(GCKind.Any);
        string[] names = ["gen0", "gen1", "gen2", "LOH", "POH"];
        var parts = info.GenerationInfo.ToArray().Select((g, i) =>
            $"{names[i]} {Mib(g.SizeAfterBytes)} MiB ({Mib(g.FragmentationAfterBytes)} free)");
        return string.Create(CultureInfo.InvariantCulture,
            $"after the last GC (#{info.Index}, gen{info.Generation}): {string.Join(", ", parts)}; collections gen0 {GC.CollectionCount(0)}, gen1 {GC.CollectionCount(1)}, gen2 {GC.CollectionCount(2)}; server GC {System.Runtime.GCSettings.IsServerGC}, {System.Runtime.GCSettings.LatencyMode}");
    }

    private static void Page(DocumentDatabase database, IndexQuery query, int documents)
    {
        var result = database.Query(SeedDataset.Index, query);
        if (result.Results.Count != PageSize || result.TotalResults != documents)
            throw new InvalidOperationException($"Expected {PageSize} of {documents}, got {result.Results.Count} of {result.TotalResults}.");
    }

    private static string Timed(string what, TimeSpan elapsed, ref IoSample before)
    {
        var now = IoSample.Current();
        var line = string.Create(CultureInfo.InvariantCulture,
            $"{what}: {elapsed.TotalMilliseconds:F2} ms, {(now.ReadBytes - before.ReadBytes) / 1024} KiB read from disk, {now.MajorFaults - before.MajorFaults} major faults");
        before = now;
        return line;
    }

    private static int RunChild(string[] args)
    {
        var self = Environment.ProcessPath ?? throw new InvalidOperationException("No process path.");
        var start = new ProcessStartInfo(self) { UseShellExecute = false };
        // Run as "dotnet RavenLite.Benchmarks.dll": the host needs the assembly first.
        if (Path.GetFileNameWithoutExtension(self) == "dotnet")
            start.ArgumentList.Add(typeof(ScaleReport).Assembly.Location);
        foreach (var arg in args)
            start.ArgumentList.Add(arg);
        foreach (var (variable, value) in ServerGcSettings())
        {
            if (Environment.GetEnvironmentVariable(variable) is null)
                start.Environment[variable] = value;
            Console.WriteLine($"{variable}={start.Environment[variable]}");
        }
        using var child = Process.Start(start) ?? throw new InvalidOperationException("The measuring process did not start.");
        child.WaitForExit();
        return child.ExitCode;
    }

    /// <summary>
    /// The GC settings of the server's runtimeconfig (copied beside this assembly, as the server is referenced), as the
    /// environment variables that set them, so the measuring process's heap behaves as the server's does; a variable
    /// already in the environment wins, to measure another setting.
    /// </summary>
    private static IEnumerable<(string Variable, string Value)> ServerGcSettings()
    {
        var path = Path.Combine(AppContext.BaseDirectory, "RavenLite.Server.runtimeconfig.json");
        using var config = System.Text.Json.JsonDocument.Parse(File.ReadAllBytes(path));
        var properties = config.RootElement.GetProperty("runtimeOptions").GetProperty("configProperties");
        if (properties.TryGetProperty("System.GC.Server", out var server))
            yield return ("DOTNET_gcServer", server.GetBoolean() ? "1" : "0");
        if (properties.TryGetProperty("System.GC.Concurrent", out var concurrent))
            yield return ("DOTNET_gcConcurrent", concurrent.GetBoolean() ? "1" : "0");
        // The runtime reads DOTNET_GC* numbers as hexadecimal.
        if (properties.TryGetProperty("System.GC.ConserveMemory", out var conserve))
            yield return ("DOTNET_GCConserveMemory", conserve.GetInt32().ToString("X", CultureInfo.InvariantCulture));
    }

    /// <summary>
    /// Asks the kernel to drop the folder's files from its page cache (GNU dd's <c>iflag=nocache count=0</c>, a
    /// POSIX_FADV_DONTNEED on each file): only this dataset's pages, not the whole machine's as
    /// <c>/proc/sys/vm/drop_caches</c> would, on a machine shared with other work.
    /// </summary>
    private static string DropFromPageCache(string folder)
    {
        var files = Directory.GetFiles(folder, "*", SearchOption.AllDirectories);
        var failed = 0;
        foreach (var file in files)
        {
            var start = new ProcessStartInfo("dd") { UseShellExecute = false, RedirectStandardError = true };
            foreach (var arg in (string[])[$"if={file}", "iflag=nocache", "count=0", "status=none"])
                start.ArgumentList.Add(arg);
            using var dd = Process.Start(start)!;
            dd.StandardError.ReadToEnd();
            dd.WaitForExit();
            failed += dd.ExitCode == 0 ? 0 : 1;
        }
        return $"dropped {files.Length - failed} of {files.Length} dataset files from the page cache";
    }

    private static long FolderBytes(string folder) =>
        Directory.Exists(folder) ? Directory.GetFiles(folder, "*", SearchOption.AllDirectories).Sum(f => new FileInfo(f).Length) : 0;

    private static long Mib(long bytes) => bytes / (1024 * 1024);

    private static string LoadAverage() =>
        File.Exists("/proc/loadavg") ? string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ').Take(3)) : "?";

    /// <summary>Bytes this process caused to be read from disk (<c>/proc/self/io</c>) and its major page faults (<c>/proc/self/stat</c>).</summary>
    private readonly record struct IoSample(long ReadBytes, long MajorFaults)
    {
        public static IoSample Current()
        {
            var readBytes = File.ReadAllLines("/proc/self/io").Select(l => l.Split(':'))
                .Where(p => p[0] == "read_bytes").Select(p => long.Parse(p[1].Trim(), CultureInfo.InvariantCulture)).FirstOrDefault();
            // Fields after the command name (which may hold spaces) start at the state, field 3; majflt is field 12.
            var stat = File.ReadAllText("/proc/self/stat");
            var majorFaults = long.Parse(stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[9], CultureInfo.InvariantCulture);
            return new IoSample(readBytes, majorFaults);
        }
    }
}

/// <summary>
/// The highest <c>RssAnon</c> of this process while it lives, sampled on a thread of its own: a figure taken once at
/// the end of a step misses the heap's high points between two collections.
/// </summary>
internal sealed class PeakMemory : IDisposable
{
    /// <summary>How often the sample is taken.</summary>
    public const int IntervalMs = 50;

    private readonly Thread _sampler;
    private volatile bool _stopped;
    private long _highestKb;

    public PeakMemory()
    {
        _sampler = new Thread(Sample) { IsBackground = true, Name = "RssAnon sampler" };
        _sampler.Start();
    }

    /// <summary>Stops sampling and returns the highest <c>RssAnon</c> seen, in KiB (the current one included).</summary>
    public long Stop()
    {
        _stopped = true;
        _sampler.Join();
        return Math.Max(Volatile.Read(ref _highestKb), MemorySample.Current().RssAnonKb);
    }

    public void Dispose()
    {
        if (!_stopped)
            Stop();
    }

    private void Sample()
    {
        while (!_stopped)
        {
            var now = MemorySample.Current().RssAnonKb;
            if (now > Volatile.Read(ref _highestKb))
                Volatile.Write(ref _highestKb, now);
            Thread.Sleep(IntervalMs);
        }
    }
}
