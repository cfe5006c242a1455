using RavenLite.Storage;
using RavenLite.Storage.CrashWriter;
using RavenLite.Storage.Documents;

// Usage: CrashWriter <data-dir> <first-batch> [hold]
//   writes batches of CrashBatch.Size documents in a loop, printing "ACK <n>" after each commit returns;
//   with "hold", opens the store, prints "OPEN" and waits for stdin to close.
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

for (var batch = int.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture); ; batch++)
{
    var commands = new BatchCommand[CrashBatch.Size];
    for (var i = 0; i < commands.Length; i++)
        commands[i] = BatchCommand.Put(CrashBatch.Key(batch, i), DocumentContent.FromJson(CrashBatch.Json(batch, i)),
            DocumentContent.FromJson("""{"Raven-Entity-Name":"Crash"}"""));
    store.Batch(commands);
    Console.WriteLine($"ACK {batch}");
    Console.Out.Flush();
}
