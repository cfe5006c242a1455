using Newtonsoft.Json.Linq;
using RavenLite.Database.Tests.Indexing;
using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Operations;

/// <summary>A patch by query in a child process killed mid-way: each committed batch stays, every document is whole.</summary>
public sealed class SetOperationKillTests : IDisposable
{
    private const int Documents = 20_000;
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_dir))
            Directory.Delete(_dir, recursive: true);
    }

    [Fact]
    public async Task A_killed_patch_by_query_leaves_whole_batches_committed_and_is_not_resumed()
    {
        using (var seed = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir }))
        {
            seed.PutIndex(new IndexDefinition { Name = "Ops/ByGroup", Fields = [new IndexFieldDefinition { Name = "Group", Path = "Group" }] });
            seed.Batch([.. Enumerable.Range(0, Documents).Select(i =>
                BatchCommand.Put($"items/{i}", new JObject { ["Group"] = $"g{i % 2}", ["N"] = i }))]);
            await seed.WaitForNonStaleAsync("Ops/ByGroup", TimeSpan.FromMinutes(2));
        }

        int acknowledged;
        using (var child = new CrashChild(_dir, "patch-by-query"))
        {
            var taken = Enumerable.Range(0, 3).Select(_ => child.NextAck(TimeSpan.FromMinutes(2))).ToList();
            Assert.Equal([100, 200, 300], taken);
            acknowledged = child.KillAndDrain().Append(300).Max();
        }

        using var db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir });
        var patched = 0;
        for (var i = 0; i < Documents; i++)
        {
            var data = db.Get($"items/{i}")!.ToJObject();
            var hasCount = data["Count"] is not null;
            Assert.Equal(hasCount, data["Patched"] is not null);
            if (hasCount)
            {
                Assert.Equal(1, i % 2);
                Assert.Equal(1, (int)data["Count"]!);
                patched++;
            }
        }
        // Each batch of 100 is one transaction: what the child acknowledged is there, and only whole batches.
        Assert.True(patched >= acknowledged, $"{patched} patched, {acknowledged} acknowledged");
        Assert.Equal(0, patched % 100);
        // Nothing resumes it: the reopened database has no operation.
        Assert.Empty(db.GetOperations());
    }
}
