namespace RavenLite.BenchmarkReport;

/// <summary>
/// A base-10 logarithmic axis from one power of ten to another, mapped onto pixels: the figures run from
/// about 100 ns to seconds, which a linear axis would squash into one bar.
/// </summary>
internal sealed class LogAxis
{
    private readonly int _lowDecade;
    private readonly int _highDecade;
    private readonly double _left;
    private readonly double _right;

    /// <summary>An axis whose range covers every positive value with whole decades to spare below the smallest.</summary>
    public LogAxis(IEnumerable<double> values, double left, double right)
    {
        var positive = values.Where(value => value > 0 && double.IsFinite(value)).DefaultIfEmpty(1).ToList();
        // Start a decade below the smallest value's own, so that even the smallest bar has a length.
        _lowDecade = (int)Math.Ceiling(Math.Log10(positive.Min()) - 1e-9) - 1;
        _highDecade = Math.Max(_lowDecade + 1, (int)Math.Ceiling(Math.Log10(positive.Max()) - 1e-9));
        _left = left;
        _right = right;
    }

    /// <summary>The value at the left end of the axis.</summary>
    public double Min => Math.Pow(10, _lowDecade);

    /// <summary>The value at the right end of the axis.</summary>
    public double Max => Math.Pow(10, _highDecade);

    /// <summary>The powers of ten from <see cref="Min"/> to <see cref="Max"/>: labelled gridlines.</summary>
    public IEnumerable<double> MajorTicks =>
        Enumerable.Range(_lowDecade, _highDecade - _lowDecade + 1).Select(decade => Math.Pow(10, decade));

    /// <summary>2 to 9 times each power of ten below <see cref="Max"/>: faint gridlines.</summary>
    public IEnumerable<double> MinorTicks =>
        MajorTicks.SkipLast(1).SelectMany(tick => Enumerable.Range(2, 8).Select(factor => factor * tick));

    /// <summary>The pixel position of a value; values outside the axis (zero included) sit at its ends.</summary>
    public double X(double value)
    {
        if (!(value > Min))
            return _left;
        if (value >= Max)
            return _right;
        return _left + (Math.Log10(value) - _lowDecade) / (_highDecade - _lowDecade) * (_right - _left);
    }
}
