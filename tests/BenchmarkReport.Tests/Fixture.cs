namespace RavenLite.BenchmarkReport.Tests;

/// <summary>The sample results folder copied next to the tests, and helpers to read it.</summary>
internal static class Fixture
{
    public static string Folder => Path.Combine(AppContext.BaseDirectory, "Fixtures", "results");

    public static string File(string className) =>
        Path.Combine(Folder, $"Sample.Area.{className}-report-full.json");

    public static ResultSet Read() => ResultReader.ReadFolder(Folder);
}
