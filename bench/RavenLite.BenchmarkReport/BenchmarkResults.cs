namespace RavenLite.BenchmarkReport;

/// <summary>One measured benchmark case: a method of a class with one set of parameter values.</summary>
/// <param name="Namespace">The benchmark class's namespace, possibly empty.</param>
/// <param name="Type">The benchmark class's name as BenchmarkDotNet prints it.</param>
/// <param name="Method">The benchmark method's name.</param>
/// <param name="Title">The method's description, or its name when it has none.</param>
/// <param name="Parameters">Parameter values such as <c>CacheEnabled=True</c>, several joined by ", "; empty when none.</param>
/// <param name="FullName">BenchmarkDotNet's full name of the case, unique within one run.</param>
/// <param name="MeanNs">Mean time per operation in nanoseconds.</param>
/// <param name="StandardErrorNs">Standard error of the mean in nanoseconds; NaN when unknown.</param>
/// <param name="AllocatedBytes">Bytes allocated per operation; null without a memory diagnoser.</param>
internal sealed record BenchmarkRow(
    string Namespace, string Type, string Method, string Title, string Parameters, string FullName,
    double MeanNs, double StandardErrorNs, long? AllocatedBytes)
{
    /// <summary>Namespace and type: what classes are grouped and sorted by.</summary>
    public string ClassName => Namespace.Length == 0 ? Type : $"{Namespace}.{Type}";

    /// <summary>The class with the last part of its namespace, the suite's area folder: "Cache/MultiGetBenchmarks".</summary>
    public string ClassHeading => Namespace.Length == 0 ? Type : $"{Namespace[(Namespace.LastIndexOf('.') + 1)..]}/{Type}";

    /// <summary>The row's label: title, then parameter values when there are any.</summary>
    public string Label => Parameters.Length == 0 ? Title : $"{Title} ({Parameters})";
}

/// <summary>The machine a report was measured on, from its HostEnvironmentInfo.</summary>
internal sealed record HostInfo(string Processor, int? LogicalCores, string Os, string Runtime, string BenchmarkDotNetVersion)
{
    /// <summary>One line for the chart's footer.</summary>
    public string Describe() =>
        string.Join(" · ", new[]
        {
            LogicalCores is { } cores ? $"{Processor}, {cores} logical cores" : Processor,
            Os, Runtime, BenchmarkDotNetVersion.Length == 0 ? "" : $"BenchmarkDotNet {BenchmarkDotNetVersion}",
        }.Where(part => part.Length > 0));
}

/// <summary>One <c>*-report-full.json</c> file: its title, machine, run date and the cases that produced statistics.</summary>
internal sealed record ResultFile(string Title, HostInfo Host, DateTime RunDate, IReadOnlyList<BenchmarkRow> Rows);

/// <summary>The rows of one benchmark class, in report order, under a heading.</summary>
internal sealed record BenchmarkGroup(string Heading, IReadOnlyList<BenchmarkRow> Rows);

/// <summary>Every report read from a results folder, grouped by class (sorted by name) for the chart and the table.</summary>
internal sealed record ResultSet(IReadOnlyList<ResultFile> Files, IReadOnlyList<BenchmarkGroup> Groups, IReadOnlyList<string> Warnings)
{
    /// <summary>All rows, group after group.</summary>
    public IEnumerable<BenchmarkRow> Rows => Groups.SelectMany(group => group.Rows);
}
