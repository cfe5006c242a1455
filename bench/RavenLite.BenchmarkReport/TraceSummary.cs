using System.Text.Json;

namespace RavenLite.BenchmarkReport;

/// <summary>One frame's share of the time spent under a root frame: its own (self) time, and with its callees (total).</summary>
internal sealed record FrameTime(string Name, double SelfMilliseconds, double TotalMilliseconds);

/// <summary>Where the time under one frame went, from a speedscope trace (what BenchmarkDotNet's EventPipe profiler writes).</summary>
internal sealed record TraceSummary(string Root, double RootMilliseconds, IReadOnlyList<FrameTime> Frames)
{
    /// <summary>
    /// Reads a speedscope file's evented profiles (one per thread: frames opened and closed at times) and sums, for
    /// every time span whose stack holds a frame whose name contains <paramref name="root"/>, that span into the
    /// top frame's self time and into the total time of every distinct frame on the stack from the root up. The leaf
    /// frames TraceEvent adds to say what kind of time a sample was (<c>CPU_TIME</c>, <c>UNMANAGED_CODE_TIME</c>, ...)
    /// are not frames of the program: the span goes to the frame under them (for unmanaged time, the managed caller).
    /// Sampled profiles are read too (each sample weighs its weight). Frames sorted by self time, longest first.
    /// </summary>
    public static TraceSummary Read(string json, string root)
    {
        ArgumentException.ThrowIfNullOrEmpty(root);
        using var document = JsonDocument.Parse(json);
        var names = document.RootElement.GetProperty("shared").GetProperty("frames").EnumerateArray()
            .Select(frame => frame.GetProperty("name").GetString() ?? "?").ToArray();
        var self = new Dictionary<string, double>(StringComparer.Ordinal);
        var total = new Dictionary<string, double>(StringComparer.Ordinal);
        double rootTime = 0;

        void Charge(IReadOnlyList<int> stack, double time)
        {
            var start = -1;
            for (var i = 0; i < stack.Count && start < 0; i++)
            {
                if (names[stack[i]].Contains(root, StringComparison.Ordinal))
                    start = i;
            }
            if (start < 0 || time <= 0)
                return;
            rootTime += time;
            var topIndex = stack.Count - 1;
            while (topIndex > start && IsTimeKind(names[stack[topIndex]]))
                topIndex--;
            var top = names[stack[topIndex]];
            self[top] = self.GetValueOrDefault(top) + time;
            // A recursive frame counts once per span in its total.
            foreach (var name in stack.Take(topIndex + 1).Skip(start).Select(frame => names[frame]).Distinct(StringComparer.Ordinal))
                total[name] = total.GetValueOrDefault(name) + time;
        }

        foreach (var profile in document.RootElement.GetProperty("profiles").EnumerateArray())
        {
            if (profile.GetProperty("type").GetString() == "sampled")
                ReadSampled(profile, Charge);
            else
                ReadEvented(profile, Charge);
        }
        var frames = self.Keys.Union(total.Keys)
            .Select(name => new FrameTime(name, self.GetValueOrDefault(name), total.GetValueOrDefault(name)))
            .OrderByDescending(frame => frame.SelfMilliseconds).ThenByDescending(frame => frame.TotalMilliseconds)
            .ThenBy(frame => frame.Name, StringComparer.Ordinal)
            .ToList();
        return new TraceSummary(root, rootTime, frames);
    }

    /// <summary>TraceEvent's leaf pseudo-frames: an upper-case name ending in <c>_TIME</c>.</summary>
    private static bool IsTimeKind(string name) =>
        name.EndsWith("_TIME", StringComparison.Ordinal) && name.All(c => c is (>= 'A' and <= 'Z') or '_');

    private static void ReadEvented(JsonElement profile, Action<IReadOnlyList<int>, double> charge)
    {
        var stack = new List<int>();
        double? last = null;
        foreach (var e in profile.GetProperty("events").EnumerateArray())
        {
            var at = e.GetProperty("at").GetDouble();
            if (last is { } previous && stack.Count > 0)
                charge(stack, at - previous);
            last = at;
            var frame = e.GetProperty("frame").GetInt32();
            if (e.GetProperty("type").GetString() == "O")
                stack.Add(frame);
            else if (stack.LastIndexOf(frame) is var index and >= 0)
                stack.RemoveRange(index, stack.Count - index);
        }
    }

    private static void ReadSampled(JsonElement profile, Action<IReadOnlyList<int>, double> charge)
    {
        var samples = profile.GetProperty("samples").EnumerateArray().ToList();
        var weights = profile.GetProperty("weights").EnumerateArray().Select(w => w.GetDouble()).ToList();
        for (var i = 0; i < samples.Count; i++)
            charge(samples[i].EnumerateArray().Select(frame => frame.GetInt32()).ToList(), weights[i]);
    }
}
