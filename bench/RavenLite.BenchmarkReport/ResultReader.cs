using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace RavenLite.BenchmarkReport;

/// <summary>
/// Reads the JSON that BenchmarkDotNet's full JSON exporter writes (<c>JsonExporter.Full</c>, or
/// <c>--exporters fulljson</c>; <c>--exporters json</c> writes the same as <c>*-report-full-compressed.json</c>).
/// </summary>
internal static partial class ResultReader
{
    private const string FullSuffix = "-report-full.json";
    private const string CompressedSuffix = "-report-full-compressed.json";

    /// <summary>Reads every full report in a folder (file names sorted) into classes sorted by name.</summary>
    public static ResultSet ReadFolder(string folder)
    {
        var full = Directory.GetFiles(folder, "*" + FullSuffix);
        // A compressed report is the same data; read it only for a class that has no indented one.
        var compressed = Directory.GetFiles(folder, "*" + CompressedSuffix)
            .Where(path => !full.Contains(path[..^CompressedSuffix.Length] + FullSuffix, StringComparer.Ordinal));
        var warnings = new List<string>();
        var files = full.Concat(compressed).Order(StringComparer.Ordinal)
            .Select(path => Parse(File.ReadAllText(path), Path.GetFileName(path), File.GetLastWriteTime(path), warnings))
            .ToList();
        return Combine(files, warnings);
    }

    /// <summary>Reads one report; a case without statistics (it failed) is left out with a warning.</summary>
    /// <param name="json">The file's text.</param>
    /// <param name="source">The file's name, for warnings.</param>
    /// <param name="fileDate">Used as the run date when the title carries none.</param>
    /// <param name="warnings">Receives one line per case left out.</param>
    public static ResultFile Parse(string json, string source, DateTime fileDate, List<string> warnings)
    {
        using var document = JsonDocument.Parse(json);
        var root = document.RootElement;
        var title = Text(root, "Title");
        var host = root.TryGetProperty("HostEnvironmentInfo", out var h) && h.ValueKind == JsonValueKind.Object
            ? new HostInfo(Text(h, "ProcessorName"), (int?)Integer(h, "LogicalCoreCount"), Text(h, "OsVersion"),
                Text(h, "RuntimeVersion"), Text(h, "BenchmarkDotNetVersion"))
            : new HostInfo("", null, "", "", "");
        var rows = new List<BenchmarkRow>();
        foreach (var entry in root.GetProperty("Benchmarks").EnumerateArray())
        {
            var fullName = Text(entry, "FullName");
            var mean = entry.TryGetProperty("Statistics", out var statistics) ? Number(statistics, "Mean") : double.NaN;
            if (double.IsNaN(mean))
            {
                warnings.Add($"{source}: {fullName} has no statistics (the benchmark failed); left out");
                continue;
            }
            long? allocated = entry.TryGetProperty("Memory", out var memory) ? Integer(memory, "BytesAllocatedPerOperation") : null;
            rows.Add(new BenchmarkRow(Text(entry, "Namespace"), Text(entry, "Type"), Text(entry, "Method"),
                Unquote(Text(entry, "MethodTitle")), Text(entry, "Parameters").Replace("&", ", ", StringComparison.Ordinal),
                fullName, mean, Number(statistics, "StandardError"), allocated));
        }
        return new ResultFile(title, host, RunDate(title) ?? fileDate, rows);
    }

    /// <summary>Groups the rows by class; a case found in several reports is taken from the newest run.</summary>
    public static ResultSet Combine(IReadOnlyList<ResultFile> files, List<string> warnings)
    {
        var newest = new Dictionary<string, ResultFile>(StringComparer.Ordinal);
        foreach (var file in files)
            foreach (var row in file.Rows)
                if (!newest.TryGetValue(row.FullName, out var seen) || file.RunDate > seen.RunDate)
                    newest[row.FullName] = file;
        var rows = files.SelectMany(file => file.Rows.Where(row => newest[row.FullName] == file)).ToList();
        var repeated = files.Sum(file => file.Rows.Count) - rows.Count;
        if (repeated > 0)
            warnings.Add($"{repeated} case(s) appear in more than one report; the newest run's figures are used");
        var groups = rows.GroupBy(row => row.ClassName, StringComparer.Ordinal)
            .OrderBy(group => group.Key, StringComparer.Ordinal)
            .Select(group => new BenchmarkGroup(group.First().ClassHeading, group.ToList()))
            .ToList();
        return new ResultSet(files, groups, warnings);
    }

    // BenchmarkDotNet titles end in the run's local start time: "Namespace.Class-20261121-143047".
    private static DateTime? RunDate(string title) =>
        TitleDate().Match(title) is { Success: true } match
            ? DateTime.ParseExact(match.Groups[1].Value, "yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)
            : null;

    // A description with spaces or punctuation comes back wrapped in single quotes: 'warm cache'.
    private static string Unquote(string title) =>
        title.Length >= 2 && title[0] == '\'' && title[^1] == '\'' ? title[1..^1] : title;

    private static string Text(JsonElement element, string name) =>
        element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString()! : "";

    // BenchmarkDotNet's JSON writer prints NaN (and infinities) as an empty string, so a number may be a string.
    private static double Number(JsonElement element, string name)
    {
        if (element.ValueKind != JsonValueKind.Object || !element.TryGetProperty(name, out var value))
            return double.NaN;
        return value.ValueKind switch
        {
            JsonValueKind.Number => value.GetDouble(),
            JsonValueKind.String when double.TryParse(value.GetString(), NumberStyles.Float, CultureInfo.InvariantCulture, out var parsed) => parsed,
            _ => double.NaN,
        };
    }

    // A failed case still has "Memory", with BytesAllocatedPerOperation null.
    private static long? Integer(JsonElement element, string name) =>
        Number(element, name) is var value && double.IsFinite(value) ? (long)value : null;

    [GeneratedRegex(@"-(\d{8}-\d{6})$")]
    private static partial Regex TitleDate();
}
