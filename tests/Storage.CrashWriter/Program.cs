using RavenLite.Storage;
using RavenLite.Storage.CrashWriter;
using RavenLite.Storage.Documents;

// Usage: CrashWriter <data-dir> <first-batch> [hold|pipelined|concurrent]
//   writes batches of CrashBatch.Size documents in a loop, printing "ACK <n>" after each commit returns;
//   with "pipelined", commits CrashBatch.PipelineLength - 1 batches as CommitMode.Pipelined and the next as Durable,
//   and acknowledges all of them only when that durable commit returns (a bulk insert's acknowledgement);
//   with "concurrent", CrashBatch.ConcurrentWriters threads write batches at once (their commits grouped), each
//   printing "ACK <n>" when its own Batch returns;
//   with "hold", opens the store, prints "OPEN" and waits for stdin to close;
//   with "put <key>", puts an empty document under the key and prints "PUT"; with "get <key>", prints "FOUND <stored key>"
//   or "MISSING" (the key-folding tests run these under another globalization mode than the test's).
//   RAVENLITE_CRASH_ENGINE names the engine (LMDB when unset); RAVENLITE_CRASH_POSTGRES is PostgreSQL's connection
//   string (in the environment, so a password stays off the command line).
if (args.Length < 2)
{
    Console.Error.WriteLine("usage: CrashWriter <data-dir> <first-batch> [hold]");
    return 2;
}

using var store = DocumentStore.Open(new StorageOptions
{
    DataDirectory = args[0],
    Engine = Enum.Parse<StorageEngineKind>(Environment.GetEnvironmentVariable("RAVENLITE_CRASH_ENGINE") ?? nameof(StorageEngineKind.Lmdb)),
    ConnectionString = Environment.GetEnvironmentVariable("RAVENLITE_CRASH_POSTGRES"),
});
if (args.Length > 2 && args[2] == "hold")
{
    Console.WriteLine("OPEN");
    Console.Out.Flush();
    Console.In.ReadToEnd();
    return 0;
}

if (args.Length > 3 && args[2] == "put")
{
    store.Put(args[3], DocumentContent.FromJson("{}"));
    Console.WriteLine("PUT");
    return 0;
}
if (args.Length > 3 && args[2] == "get")
{
    Console.WriteLine(store.Get(args[3]) is { } found ? $"FOUND {found.Key}" : "MISSING");
    return 0;
}

var mode = args.Length > 2 ? args[2] : "";
var first = int.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture);
if (mode == "concurrent")
{
    // Writers share the batch numbers; each prints its own acknowledgements (Console.WriteLine is synchronized).
    var next = first - 1;
    var writers = Enumerable.Range(0, CrashBatch.ConcurrentWriters).Select(_ => new Thread(() =>
    {
        while (true)
        {
            var batch = Interlocked.Increment(ref next);
            store.Batch(Commands(batch));
            Console.WriteLine($"ACK {batch}");
        }
    })).ToList();
    writers.ForEach(w => w.Start());
    writers.ForEach(w => w.Join());
}
for (var batch = first; ; batch++)
{
    var commands = Commands(batch);
    if (mode != "pipelined")
    {
        store.Batch(commands);
        Console.WriteLine($"ACK {batch}");
        Console.Out.Flush();
        continue;
    }
    var closesRun = (batch - first + 1) % CrashBatch.PipelineLength == 0;
    store.Batch(commands, closesRun ? CommitMode.Durable : CommitMode.Pipelined);
    if (!closesRun)
        continue;
    for (var acknowledged = batch - CrashBatch.PipelineLength + 1; acknowledged <= batch; acknowledged++)
        Console.WriteLine($"ACK {acknowledged}");
    Console.Out.Flush();
}

static BatchCommand[] Commands(int batch)
{
    var commands = new BatchCommand[CrashBatch.Size];
    for (var i = 0; i < commands.Length; i++)
        commands[i] = BatchCommand.Put(CrashBatch.Key(batch, i), DocumentContent.FromJson(CrashBatch.Json(batch, i)),
            DocumentContent.FromJson("""{"Raven-Entity-Name":"Crash"}"""));
    return commands;
}
