namespace RavenLite.BenchmarkReport.Tests;

public sealed class ResultReaderTests : IDisposable
{
    private readonly string _temp = Directory.CreateTempSubdirectory("bench-report-").FullName;

    public void Dispose() => Directory.Delete(_temp, recursive: true);

    [Fact]
    public void The_fixture_is_read_into_classes_sorted_by_name_with_rows_in_report_order()
    {
        var results = Fixture.Read();

        Assert.Equal(["Area/CacheLikeBenchmarks", "Area/FailingBenchmarks", "Area/NoMemoryDiagnoserBenchmarks", "Area/SlowBenchmarks"],
            results.Groups.Select(group => group.Heading));
        Assert.Equal(["Documents=10", "Documents=1000"], results.Groups[1].Rows.Select(row => row.Parameters));
        var slow = Assert.Single(results.Groups[3].Rows);
        Assert.Equal("sleep 1.2 s", slow.Title); // BenchmarkDotNet wrote it as 'sleep 1.2 s'
        Assert.Equal(1_200_262_441, slow.MeanNs);
        Assert.Equal(0, slow.AllocatedBytes);
        Assert.Null(results.Groups[2].Rows[0].AllocatedBytes); // no MemoryDiagnoser: no "Memory" at all
        Assert.Equal(32, results.Groups[1].Rows[1].AllocatedBytes);
        Assert.Equal("AMD EPYC", results.Files[0].Host.Processor);
        Assert.Equal(new DateTime(2026, 11, 21, 14, 30, 47), results.Files[0].RunDate);
    }

    [Fact]
    public void Failed_benchmarks_are_left_out_with_a_warning()
    {
        var results = Fixture.Read();

        Assert.DoesNotContain(results.Rows, row => row.Method == "Throws");
        Assert.Equal(2, results.Warnings.Count);
        Assert.Contains(results.Warnings, warning => warning.Contains("FailingBenchmarks.Throws(Documents: 10)", StringComparison.Ordinal));
        Assert.Contains(results.Warnings, warning => warning.Contains("FailingBenchmarks.Throws(Documents: 1000)", StringComparison.Ordinal));
    }

    [Fact]
    public void NaN_written_as_an_empty_string_reads_as_NaN_and_a_NaN_mean_counts_as_failed()
    {
        const string json = """
            { "Title": "T", "Benchmarks": [
              { "Type": "A", "Method": "Ok", "MethodTitle": "Ok", "Parameters": "X=1&Y=2", "FullName": "A.Ok",
                "Statistics": { "Mean": 5, "StandardError": "" } },
              { "Type": "A", "Method": "Odd", "MethodTitle": "Odd", "Parameters": "", "FullName": "A.Odd",
                "Statistics": { "Mean": "", "StandardError": "" } } ] }
            """;
        var warnings = new List<string>();

        var file = ResultReader.Parse(json, "t.json", new DateTime(2026, 1, 2), warnings);

        var row = Assert.Single(file.Rows);
        Assert.True(double.IsNaN(row.StandardErrorNs));
        Assert.Equal("X=1, Y=2", row.Parameters); // several parameters are joined with '&'
        Assert.Equal(new DateTime(2026, 1, 2), file.RunDate); // no date in the title: the file's
        Assert.Single(warnings);
    }

    [Fact]
    public void A_compressed_report_is_read_only_for_a_class_without_an_indented_one()
    {
        var slow = File.ReadAllText(Fixture.File("SlowBenchmarks"));
        File.WriteAllText(Path.Combine(_temp, "Sample.Area.SlowBenchmarks-report-full.json"), slow);
        File.WriteAllText(Path.Combine(_temp, "Sample.Area.SlowBenchmarks-report-full-compressed.json"), slow);
        File.Copy(Fixture.File("NoMemoryDiagnoserBenchmarks"), Path.Combine(_temp, "Sample.Area.Tiny-report-full-compressed.json"));

        var results = ResultReader.ReadFolder(_temp);

        Assert.Equal(2, results.Files.Count);
        Assert.Equal(["Tiny", "Sleep"], results.Rows.Select(row => row.Method)); // NoMemoryDiagnoserBenchmarks sorts first
        Assert.Empty(results.Warnings);
    }

    [Fact]
    public void A_case_found_in_two_reports_is_taken_from_the_newer_run()
    {
        var older = File.ReadAllText(Fixture.File("SlowBenchmarks"));
        var newer = older.Replace("-20261121-143217", "-20261122-090000", StringComparison.Ordinal)
            .Replace("\"Mean\":1200262441", "\"Mean\":1100000000", StringComparison.Ordinal);
        File.WriteAllText(Path.Combine(_temp, "A-report-full.json"), newer);
        File.WriteAllText(Path.Combine(_temp, "B-report-full.json"), older);

        var results = ResultReader.ReadFolder(_temp);

        Assert.Equal(1_100_000_000, Assert.Single(results.Rows).MeanNs);
        Assert.Single(results.Warnings);
    }
}
