using System.Globalization;
using RavenLite.Database;
using RavenLite.Database.CrashWriter;
using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

// Usage: CrashWriter <data-dir> <seed> <first-step> [mapreduce], or CrashWriter <data-dir> patch-by-query (see SetOperationChild)
//   opens the database (its indexer running), puts the Crash/ByGroup index (and with "mapreduce" the
//   Crash/TotalsByGroup map/reduce index), then runs the steps from <first-step> on,
//   printing "ACK <step>" after each one's commit returns, until it is killed.
if (args is [var directory, "patch-by-query"])
    return SetOperationChild.Run(directory);
if (args.Length < 3)
{
    Console.Error.WriteLine("usage: CrashWriter <data-dir> <seed> <first-step>");
    return 2;
}

var seed = int.Parse(args[1], CultureInfo.InvariantCulture);
using var db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = args[0], Log = line => Console.Error.WriteLine(line) });
db.PutIndex(IndexDefinition.FromJson(CrashSteps.IndexJson));
if (args.Length > 3 && args[3] == "mapreduce")
    db.PutIndex(IndexDefinition.FromJson(CrashSteps.MapReduceIndexJson));
for (var step = int.Parse(args[2], CultureInfo.InvariantCulture); ; step++)
{
    var writes = CrashSteps.Step(seed, step);
    if (writes.Count == 1 && writes[0].IsDelete)
        db.Delete(writes[0].Key);
    else if (writes.Count == 1)
        db.Put(writes[0].Key, DocumentContent.FromJson(CrashSteps.Json(step, 0)), CrashSteps.Metadata);
    else
        db.Batch([.. writes.Select(w => w.IsDelete
            ? BatchCommand.Delete(w.Key)
            : BatchCommand.Put(w.Key, DocumentContent.FromJson(CrashSteps.Json(w.Step, w.Index)), CrashSteps.Metadata))]);
    Console.WriteLine($"ACK {step}");
    Console.Out.Flush();
}
