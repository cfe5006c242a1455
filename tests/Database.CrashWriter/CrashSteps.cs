using RavenLite.Storage.Documents;

namespace RavenLite.Database.CrashWriter;

/// <summary>
/// The writes the crash writer makes, step by step, deterministic from a seed, so the test can replay exactly what
/// any prefix of the steps leaves: a step is one put, one delete, or one batch of 2 to 30 puts and deletes.
/// </summary>
public static class CrashSteps
{
    public const string EntityName = "Crash";
    public const string IndexName = "Crash/ByGroup";
    public const int KeySpace = 300;

    public const string IndexJson = """
        {"Name": "Crash/ByGroup", "EntityName": "Crash",
         "Fields": [{"Name": "Group", "Path": "group", "Sort": "Long"}, {"Name": "Step", "Path": "step", "Sort": "Long"},
                    {"Name": "Words", "Path": "words", "Analysis": "FullText"}]}
        """;

    public const string MapReduceIndexName = "Crash/TotalsByGroup";

    /// <summary>A map/reduce over the same documents: per group, how many, and the sum, smallest, largest and average step.</summary>
    public const string MapReduceIndexJson = """
        {"Name": "Crash/TotalsByGroup", "EntityName": "Crash",
         "Fields": [{"Name": "Group", "Path": "group", "Sort": "Long"}, {"Name": "Step", "Path": "step", "Sort": "Long"}],
         "Reduce": {"GroupBy": ["Group"],
                    "Aggregates": [{"Name": "Count", "Function": "Count"}, {"Name": "Sum", "Function": "Sum", "Field": "Step"},
                                   {"Name": "Min", "Function": "Min", "Field": "Step"}, {"Name": "Max", "Function": "Max", "Field": "Step"},
                                   {"Name": "Average", "Function": "Average", "Field": "Step"}]}}
        """;

    /// <summary>One write of a step: a put of <see cref="Key"/> (its content from <see cref="Json"/>), or a delete.</summary>
    public readonly record struct Write(string Key, bool IsDelete, int Step, int Index);

    public static IReadOnlyList<Write> Step(int seed, int step)
    {
        var random = new Random(unchecked((seed * 1_000_003) + step));
        var kind = random.Next(3);
        var count = kind == 2 ? random.Next(2, 31) : 1;
        var keys = new HashSet<int>();
        while (keys.Count < count)
            keys.Add(random.Next(KeySpace));
        var writes = new List<Write>(count);
        var i = 0;
        foreach (var key in keys)
        {
            var delete = kind == 1 || (kind == 2 && random.Next(4) == 0);
            writes.Add(new Write($"crash/{key}", delete, step, i++));
        }
        return writes;
    }

    public static string Json(int step, int index) =>
        $$"""{"group": {{(step + index) % 7}}, "step": {{step}}, "index": {{index}}, "words": "step {{step}} item {{index}}", "padding": "{{new string('x', 200 + index)}}"}""";

    public static DocumentContent Metadata { get; } = DocumentContent.FromJson($$"""{"Raven-Entity-Name":"{{EntityName}}"}""");

    /// <summary>What steps 0..<paramref name="lastStep"/> leave: key (lower-cased) -> the write that put its current version.</summary>
    public static Dictionary<string, Write> Replay(int seed, int lastStep)
    {
        var state = new Dictionary<string, Write>(StringComparer.OrdinalIgnoreCase);
        for (var step = 0; step <= lastStep; step++)
        {
            foreach (var write in Step(seed, step))
            {
                if (write.IsDelete)
                    state.Remove(write.Key);
                else
                    state[write.Key] = write;
            }
        }
        return state;
    }
}
