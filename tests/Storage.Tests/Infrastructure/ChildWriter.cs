using System.Collections.Concurrent;
using System.Diagnostics;

namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>Runs the RavenLite.Storage.CrashWriter program as a child process.</summary>
public sealed class ChildWriter : IDisposable
{
    private readonly Process _process;
    private readonly BlockingCollection<string> _lines = [];

    private ChildWriter(StorageEngineKind engine, string? postgres, params string[] args) : this(engine, postgres, false, args)
    {
    }

    private ChildWriter(StorageEngineKind engine, string? postgres, bool invariantGlobalization, params string[] args)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardInput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "RavenLite.Storage.CrashWriter.dll"));
        foreach (var arg in args)
            start.ArgumentList.Add(arg);
        start.Environment["RAVENLITE_CRASH_ENGINE"] = engine.ToString();
        if (postgres is not null)
            start.Environment["RAVENLITE_CRASH_POSTGRES"] = postgres;
        if (invariantGlobalization)
            start.Environment["DOTNET_SYSTEM_GLOBALIZATION_INVARIANT"] = "1";
        _process = new Process { StartInfo = start };
        _process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null)
                _lines.CompleteAdding();
            else
                _lines.Add(e.Data);
        };
        _process.ErrorDataReceived += (_, e) => { if (e.Data is not null) Errors.Add(e.Data); };
        _process.Start();
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    public ConcurrentBag<string> Errors { get; } = [];

    public static ChildWriter StartHolding(string directory)
    {
        var child = new ChildWriter(StorageEngineKind.Lmdb, null, directory, "0", "hold");
        child.WaitForLine("OPEN");
        return child;
    }

    /// <param name="directory">The data folder.</param>
    /// <param name="firstBatch">The number of the first batch to write.</param>
    /// <param name="engine">The engine the child writes with.</param>
    /// <param name="mode">Empty: one writer, each batch durable. "pipelined": runs of pipelined batches closed by a
    /// durable one, acknowledged at its end. "concurrent": several writers at once, each batch durable.</param>
    public static ChildWriter StartWriting(string directory, int firstBatch, StorageEngineKind engine = StorageEngineKind.Lmdb,
        string mode = "")
    {
        var first = firstBatch.ToString(System.Globalization.CultureInfo.InvariantCulture);
        var connection = StoreFactory.ConnectionStringFor(engine, directory);
        return mode.Length == 0 ? new(engine, connection, directory, first) : new(engine, connection, directory, first, mode);
    }

    /// <summary>
    /// Runs "put" or "get" (<paramref name="args"/>) on the LMDB store in <paramref name="directory"/> with invariant
    /// globalization (no ICU: the runtime's own Unicode data, as in many containers); the one line it answers.
    /// </summary>
    public static string RunWithInvariantGlobalization(string directory, params string[] args)
    {
        using var child = new ChildWriter(StorageEngineKind.Lmdb, null, true, [directory, "0", .. args]);
        var line = child.NextLine(TimeSpan.FromSeconds(60));
        child._process.WaitForExit();
        Assert.True(child._process.ExitCode == 0, $"The child exited with {child._process.ExitCode}: {string.Join('\n', child.Errors)}");
        return line;
    }

    /// <summary>Waits for the next line; throws with the child's stderr if it exits or stalls first.</summary>
    public string NextLine(TimeSpan timeout)
    {
        if (_lines.TryTake(out var line, timeout))
            return line;
        throw new InvalidOperationException(
            $"The child wrote no line within {timeout.TotalSeconds} s (exited: {_process.HasExited}). stderr: {string.Join('\n', Errors)}");
    }

    private void WaitForLine(string expected)
    {
        var line = NextLine(TimeSpan.FromSeconds(60));
        if (line != expected)
            throw new InvalidOperationException($"Expected '{expected}' from the child, got '{line}'.");
    }

    /// <summary>SIGKILL on Unix (TerminateProcess on Windows); then every line it wrote before dying.</summary>
    public IReadOnlyList<string> KillAndDrain()
    {
        _process.Kill();
        _process.WaitForExit();
        var rest = new List<string>();
        foreach (var line in _lines.GetConsumingEnumerable())
            rest.Add(line);
        return rest;
    }

    public void Dispose()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.StandardInput.Close();
                if (!_process.WaitForExit(10_000))
                    _process.Kill();
            }
            _process.WaitForExit();
        }
        finally
        {
            _process.Dispose();
            _lines.Dispose();
        }
    }
}
