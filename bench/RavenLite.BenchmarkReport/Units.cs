using System.Globalization;

namespace RavenLite.BenchmarkReport;

/// <summary>Human-readable times and sizes with three significant digits, in the invariant culture.</summary>
internal static class Units
{
    private static readonly (string Name, double Scale)[] TimeUnits = [("ns", 1), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)];

    // Binary kilobytes, as BenchmarkDotNet's Allocated column counts them.
    private static readonly (string Name, double Scale)[] SizeUnits = [("B", 1), ("KB", 1024), ("MB", 1024d * 1024), ("GB", 1024d * 1024 * 1024)];

    /// <summary>Nanoseconds in the largest unit that keeps the number at 1 or more: 447,000 gives "447 µs".</summary>
    public static string Time(double nanoseconds) => Format(nanoseconds, TimeUnits);

    /// <summary>Bytes in B, KB, MB or GB (1 KB = 1024 B); "-" when not measured.</summary>
    public static string Size(long? bytes) => bytes is { } value ? Format(value, SizeUnits) : "-";

    private static string Format(double value, (string Name, double Scale)[] units)
    {
        var i = 0;
        while (i < units.Length - 1 && Math.Abs(value) >= units[i + 1].Scale)
            i++;
        var rounded = Round(value / units[i].Scale);
        // Rounding can reach the next unit: 999.7 µs is "1 ms", not "1000 µs".
        if (i < units.Length - 1 && Math.Abs(rounded) >= units[i + 1].Scale / units[i].Scale)
            rounded = Round(value / units[++i].Scale);
        return $"{rounded.ToString("0.##", CultureInfo.InvariantCulture)} {units[i].Name}";
    }

    private static double Round(double value)
    {
        var magnitude = Math.Abs(value);
        var decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
        return Math.Round(value, decimals, MidpointRounding.AwayFromZero);
    }
}
