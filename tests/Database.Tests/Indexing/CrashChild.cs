using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>Runs the RavenLite.Database.CrashWriter program as a child process, to be killed.</summary>
internal sealed class CrashChild : IDisposable
{
    private readonly Process _process;
    private readonly BlockingCollection<string> _lines = [];
    private readonly ConcurrentQueue<string> _errors = new();
    private static readonly string[] s_mapReduce = ["mapreduce"];

    public CrashChild(string directory, int seed, int firstStep, bool mapReduce = false)
        : this([directory, seed.ToString(CultureInfo.InvariantCulture), firstStep.ToString(CultureInfo.InvariantCulture), .. mapReduce ? s_mapReduce : []])
    {
    }

    /// <summary>Runs the child with these arguments.</summary>
    public CrashChild(params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "RavenLite.Database.CrashWriter.dll"));
        foreach (var argument in arguments)
            start.ArgumentList.Add(argument);
        _process = new Process { StartInfo = start };
        _process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null)
                _lines.CompleteAdding();
            else
                _lines.Add(e.Data);
        };
        _process.ErrorDataReceived += (_, e) => { if (e.Data is not null) _errors.Enqueue(e.Data); };
        _process.Start();
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    /// <summary>The step of the next acknowledgement; throws with the child's stderr if it exits or stalls first.</summary>
    public int NextAck(TimeSpan timeout)
    {
        if (_lines.TryTake(out var line, timeout))
            return ParseAck(line);
        throw new InvalidOperationException(
            $"The child wrote no line within {timeout.TotalSeconds} s (exited: {_process.HasExited}). stderr: {string.Join('\n', _errors)}");
    }

    /// <summary>SIGKILL; then every step it acknowledged before dying.</summary>
    public IReadOnlyList<int> KillAndDrain()
    {
        _process.Kill();
        _process.WaitForExit();
        return [.. _lines.GetConsumingEnumerable().Select(ParseAck)];
    }

    private static int ParseAck(string line) =>
        line.StartsWith("ACK ", StringComparison.Ordinal)
            ? int.Parse(line.AsSpan(4), CultureInfo.InvariantCulture)
            : throw new InvalidOperationException($"Unexpected line from the child: '{line}'.");

    public void Dispose()
    {
        if (!_process.HasExited)
            _process.Kill();
        _process.WaitForExit();
        _process.Dispose();
        _lines.Dispose();
    }
}
