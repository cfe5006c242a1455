using RavenLite.Database;

namespace RavenLite.Database.CrashWriter;

/// <summary>
/// <c>CrashWriter &lt;data-dir&gt; patch-by-query</c>: opens the database the test seeded (index <see cref="Index"/>),
/// patches every <c>Group:g1</c> document in batches of <see cref="BatchSize"/>, and prints "ACK &lt;processed&gt;"
/// after each committed batch, then "ACK -1" when done, until it is killed.
/// </summary>
internal static class SetOperationChild
{
    public const string Index = "Ops/ByGroup";
    public const int BatchSize = 100;

    public static int Run(string directory)
    {
        using var db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = directory });
        db.WaitForNonStaleAsync(Index, TimeSpan.FromMinutes(2)).GetAwaiter().GetResult();
        var patch = DocumentPatch.FromOperations([PatchOperation.IncrementBy("/Count", 1), PatchOperation.Add("/Patched", true)]);
        var operation = db.PatchByQuery(Index, "Group:g1", patch, new SetOperationOptions { BatchSize = BatchSize, Progress = new Acks() });
        operation.Completion.GetAwaiter().GetResult();
        Console.WriteLine("ACK -1");
        Console.Out.Flush();
        return 0;
    }

    private sealed class Acks : IProgress<SetOperationStatus>
    {
        public void Report(SetOperationStatus value)
        {
            Console.WriteLine($"ACK {value.Processed}");
            Console.Out.Flush();
        }
    }
}
