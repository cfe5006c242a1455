namespace RavenLite.Storage.CrashWriter;

/// <summary>The shape of the documents the crash writer writes, shared with the test that checks them.</summary>
public static class CrashBatch
{
    public const int Size = 10;

    /// <summary>In the pipelined mode, the batches of one run: all but the last pipelined, the last durable.</summary>
    public const int PipelineLength = 4;

    /// <summary>In the concurrent mode, how many threads write at once.</summary>
    public const int ConcurrentWriters = 4;

    public static string Key(int batch, int index) => $"crash/{batch}/{index}";

    // A few hundred bytes per document so batches span pages.
    public static string Json(int batch, int index) =>
        $$"""{"batch":{{batch}},"index":{{index}},"padding":"{{new string('x', 300 + index)}}"}""";
}
