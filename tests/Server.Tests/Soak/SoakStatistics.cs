using System.Collections.Concurrent;
using System.Net;

namespace RavenLite.Server.Tests.Soak;

/// <summary>Requests, latencies and unexpected answers, gathered from every client of a soak run.</summary>
internal sealed class SoakStatistics
{
    private readonly ConcurrentQueue<double> _latenciesMs = new();
    private readonly ConcurrentQueue<string> _failures = new();
    private int _serverErrors;

    public int ServerErrors => Volatile.Read(ref _serverErrors);

    public IReadOnlyCollection<string> Failures => _failures;

    public int Requests => _latenciesMs.Count;

    public void Record(double milliseconds, HttpStatusCode status, string what, bool expected)
    {
        _latenciesMs.Enqueue(milliseconds);
        if ((int)status >= 500)
            Interlocked.Increment(ref _serverErrors);
        if (!expected && _failures.Count < 50)
            _failures.Enqueue($"{what} -> {(int)status}");
    }

    public void Fail(string what) => _failures.Enqueue(what);

    /// <summary>The latency below which <paramref name="fraction"/> of requests finished, in milliseconds.</summary>
    public double Percentile(double fraction)
    {
        var sorted = _latenciesMs.ToArray();
        Array.Sort(sorted);
        return sorted.Length == 0 ? 0 : sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(fraction * sorted.Length) - 1)];
    }
}
