using System.Diagnostics;
using System.Globalization;

namespace RavenLite.Server.Cli;

/// <summary>
/// Progress of an export or import: on a terminal one line redrawn in place (a bar when the total is known, and
/// documents per second); otherwise a plain line every few seconds, so logs stay readable.
/// </summary>
internal sealed class TransferProgress(TextWriter writer, bool interactive)
{
    private static readonly TimeSpan s_plainInterval = TimeSpan.FromSeconds(5);
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private TimeSpan _lastPlain;
    private bool _drawn;

    /// <summary>Documents done so far.</summary>
    public long Done { get; private set; }

    public TimeSpan Elapsed => _clock.Elapsed;

    public double Rate => Done / Math.Max(_clock.Elapsed.TotalSeconds, 1e-3);

    /// <summary>Records <paramref name="count"/> more documents; <paramref name="fraction"/> of the whole, when known.</summary>
    public void Add(int count, double? fraction)
    {
        Done += count;
        if (interactive)
        {
            var bar = fraction is { } f ? $"[{new string('#', (int)(Math.Clamp(f, 0, 1) * 30)),-30}] {f,4:P0} " : "";
            writer.Write(string.Create(CultureInfo.InvariantCulture, $"\r{bar}{Done,12:N0} documents  {Rate,10:N0} docs/s "));
            _drawn = true;
        }
        else if (_clock.Elapsed - _lastPlain >= s_plainInterval)
        {
            _lastPlain = _clock.Elapsed;
            writer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{Done:N0} documents, {Rate:N0} docs/s"));
        }
    }

    /// <summary>Ends the redrawn line, so what follows starts on its own line.</summary>
    public void Finish()
    {
        if (_drawn)
            writer.WriteLine();
        _drawn = false;
    }

    /// <summary>"N documents in S s (R docs/s)".</summary>
    public string Summary(string verb) =>
        string.Create(CultureInfo.InvariantCulture, $"{verb} {Done:N0} documents in {_clock.Elapsed.TotalSeconds:0.0} s ({Rate:N0} docs/s).");
}
