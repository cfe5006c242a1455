using Newtonsoft.Json.Linq;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Operations;

public sealed class SetOperationTests
{
    private static readonly TimeSpan s_wait = TimeSpan.FromMinutes(5);

    private static readonly DocumentPatch s_markAndCount = DocumentPatch.FromOperations(
        [PatchOperation.IncrementBy("/Count", 1), PatchOperation.Add("/Patched", true)]);

    [Fact]
    public async Task Patch_by_query_over_5000_documents_changes_exactly_the_matched_set() =>
        await PatchesExactlyTheMatchedSet(5_000);

    [Fact]
    [Trait("Category", "Slow")]
    public async Task Patch_by_query_over_100000_documents_changes_exactly_the_matched_set() =>
        await PatchesExactlyTheMatchedSet(100_000);

    [Fact]
    public async Task Delete_by_query_over_5000_documents_deletes_exactly_the_matched_set() =>
        await DeletesExactlyTheMatchedSet(5_000);

    [Fact]
    [Trait("Category", "Slow")]
    public async Task Delete_by_query_over_100000_documents_deletes_exactly_the_matched_set() =>
        await DeletesExactlyTheMatchedSet(100_000);

    private static async Task PatchesExactlyTheMatchedSet(int count)
    {
        using var db = new SetOperationDatabase(count);
        var before = Enumerable.Range(0, count).ToDictionary(SetOperationDatabase.Key, i => db.Db.Get(SetOperationDatabase.Key(i))!.Etag);
        var oracle = Enumerable.Range(0, count).Where(i => SetOperationDatabase.Group(i) is "g3" or "g5")
            .Select(SetOperationDatabase.Key).ToHashSet(StringComparer.Ordinal);

        var operation = db.Db.PatchByQuery(SetOperationDatabase.Index, "Group:g3 OR Group:g5", s_markAndCount);
        var status = await operation.WaitAsync(s_wait);

        Assert.Equal(SetOperationState.Completed, status.State);
        Assert.Equal(SetOperationKind.Patch, status.Kind);
        Assert.Equal(oracle.Count, status.Matched);
        Assert.Equal(oracle.Count, status.Processed);
        Assert.Equal(oracle.Count, status.Changed);
        Assert.Equal(0, status.FailedCount);
        for (var i = 0; i < count; i++)
        {
            var key = SetOperationDatabase.Key(i);
            var document = db.Db.Get(key)!;
            var data = document.ToJObject();
            if (oracle.Contains(key))
            {
                Assert.Equal(1, (int)data["Count"]!);
                Assert.True((bool)data["Patched"]!);
                Assert.Equal(i, (int)data["N"]!);
            }
            else
            {
                Assert.Null(data["Patched"]);
                Assert.Equal(before[key], document.Etag);
            }
        }
        db.WaitForIndex();
        Assert.Equal(oracle.Count, db.Db.Query(SetOperationDatabase.Index, new IndexQuery { Query = "Group:g3 OR Group:g5", PageSize = 0 }).TotalResults);
    }

    private static async Task DeletesExactlyTheMatchedSet(int count)
    {
        using var db = new SetOperationDatabase(count);
        var oracle = Enumerable.Range(0, count).Where(i => SetOperationDatabase.Group(i) == "g2")
            .Select(SetOperationDatabase.Key).ToHashSet(StringComparer.Ordinal);
        // A changes feed open before the operation holds the tombstones until it has read them (the indexer purges them).
        using var feedStop = new CancellationTokenSource(s_wait);
        var feed = db.Db.Changes(db.Db.GetStatistics().LastEtag, feedStop.Token).GetAsyncEnumerator(feedStop.Token);
        var registered = feed.MoveNextAsync();
        db.Db.Put("marker/1", new JObject());
        Assert.True(await registered);
        db.Db.Delete("marker/1");
        db.WaitForIndex();

        var status = await db.Db.DeleteByQuery(SetOperationDatabase.Index, "Group:g2").WaitAsync(s_wait);

        Assert.Equal(SetOperationState.Completed, status.State);
        Assert.Equal(SetOperationKind.Delete, status.Kind);
        Assert.Equal(oracle.Count, status.Changed);
        for (var i = 0; i < count; i++)
        {
            var key = SetOperationDatabase.Key(i);
            Assert.Equal(!oracle.Contains(key), db.Db.Get(key) is not null);
        }
        Assert.Equal(count - oracle.Count, db.Db.GetStatistics().Documents);
        // The changes feed has one delete per document, through the normal write path.
        var deletes = new List<string>();
        while (deletes.Count < oracle.Count && await feed.MoveNextAsync())
        {
            if (feed.Current is { Kind: ChangeKind.Delete, Key: { } key } && key.StartsWith("items/", StringComparison.Ordinal))
                deletes.Add(key);
        }
        await feed.DisposeAsync();
        Assert.Equal(oracle.OrderBy(k => k, StringComparer.Ordinal), deletes.Order(StringComparer.Ordinal));
        db.WaitForIndex();
        Assert.Equal(0, db.Db.Query(SetOperationDatabase.Index, new IndexQuery { Query = "Group:g2", PageSize = 0 }).TotalResults);
        Assert.Equal(count - oracle.Count, db.Db.Query(SetOperationDatabase.Index, new IndexQuery { PageSize = 0 }).TotalResults);
    }

    [Fact]
    public async Task A_write_made_between_batches_is_kept_and_the_patch_applies_on_top()
    {
        using var db = new SetOperationDatabase(700);
        var matched = Enumerable.Range(0, 700).Where(i => i % 7 == 1).Select(SetOperationDatabase.Key).ToList();
        var written = new List<string>();
        var progress = new Callback(_ =>
        {
            if (written.Count > 0)
                return;
            // After the first batch of 10: every matched document gets a write of its own, patched or not yet.
            foreach (var key in matched)
            {
                db.Db.Patch(key, DocumentPatch.FromOperations([PatchOperation.Add("/Writer", "w")]));
                written.Add(key);
            }
            db.Db.Delete(matched[^1]);
        });

        var status = await db.Db.PatchByQuery(SetOperationDatabase.Index, "Group:g1", s_markAndCount,
            new SetOperationOptions { BatchSize = 10, Progress = progress }).WaitAsync(s_wait);

        Assert.Equal(SetOperationState.Completed, status.State);
        Assert.Equal(matched.Count, status.Processed);
        Assert.Equal(matched.Count - 1, status.Changed);
        Assert.Null(db.Db.Get(matched[^1]));
        foreach (var key in matched.SkipLast(1))
        {
            var data = db.Db.Get(key)!.ToJObject();
            Assert.Equal("w", (string?)data["Writer"]);
            Assert.Equal(1, (int)data["Count"]!);
        }
    }

    [Fact]
    public async Task A_concurrent_writer_loses_no_update_and_no_document_is_patched_twice()
    {
        using var db = new SetOperationDatabase(3_500);
        var matched = Enumerable.Range(0, 3_500).Where(i => i % 7 == 4).Select(SetOperationDatabase.Key).ToList();
        var increments = new int[matched.Count];
        using var stop = new CancellationTokenSource();
        var writer = Task.Run(() =>
        {
            var random = new Random(7);
            while (!stop.IsCancellationRequested)
            {
                var i = random.Next(matched.Count);
                db.Db.Patch(matched[i], DocumentPatch.FromOperations([PatchOperation.IncrementBy("/Writes", 1)]));
                increments[i]++;
            }
        });

        var status = await db.Db.PatchByQuery(SetOperationDatabase.Index, "Group:g4", s_markAndCount,
            new SetOperationOptions { BatchSize = 16 }).WaitAsync(s_wait);
        await stop.CancelAsync();
        await writer;

        Assert.Equal(SetOperationState.Completed, status.State);
        Assert.True(increments.Sum() > 0);
        for (var i = 0; i < matched.Count; i++)
        {
            var data = db.Db.Get(matched[i])!.ToJObject();
            Assert.Equal(1, (int)data["Count"]!);
            Assert.Equal(increments[i], (int?)data["Writes"] ?? 0);
        }
    }

    [Fact]
    public async Task Cancel_stops_between_batches_and_leaves_each_document_whole()
    {
        using var db = new SetOperationDatabase(2_100);
        var started = new TaskCompletionSource<SetOperation>();
        var batches = 0;
        var progress = new Callback(_ =>
        {
            if (++batches == 3)
                started.Task.GetAwaiter().GetResult().Cancel();
        });

        var operation = db.Db.PatchByQuery(SetOperationDatabase.Index, null, s_markAndCount,
            new SetOperationOptions { BatchSize = 100, Progress = progress });
        started.SetResult(operation);
        var status = await operation.WaitAsync(s_wait);

        Assert.Equal(SetOperationState.Cancelled, status.State);
        Assert.Equal(2_100, status.Matched);
        Assert.Equal(300, status.Processed);
        Assert.Equal(300, status.Changed);
        Assert.NotNull(status.FinishedAt);
        var patched = 0;
        for (var i = 0; i < 2_100; i++)
        {
            var data = db.Db.Get(SetOperationDatabase.Key(i))!.ToJObject();
            var hasCount = data["Count"] is not null;
            Assert.Equal(hasCount, data["Patched"] is not null);
            patched += hasCount ? 1 : 0;
        }
        Assert.Equal(300, patched);
        Assert.Equal(status, db.Db.GetOperation(operation.Id)!.Status);
    }

    [Fact]
    public async Task A_stale_index_is_refused_unless_allowed()
    {
        using var db = new SetOperationDatabase(70);
        using (db.Db.Indexes.PauseIndexing())
        {
            db.Db.Put("items/new", new JObject { ["Group"] = "g0" });

            var refused = Assert.Throws<IndexStaleException>(() => db.Db.DeleteByQuery(SetOperationDatabase.Index, "Group:g0"));
            Assert.Equal(SetOperationDatabase.Index, refused.IndexName);
            Assert.Equal(71, db.Db.GetStatistics().Documents);

            var status = await db.Db.DeleteByQuery(SetOperationDatabase.Index, "Group:g0", new SetOperationOptions { AllowStale = true }).WaitAsync(s_wait);
            Assert.Equal(SetOperationState.Completed, status.State);
            Assert.Equal(10, status.Changed);
            // The stale index did not know the new document: it is still there.
            Assert.NotNull(db.Db.Get("items/new"));
        }
    }

    [Fact]
    public async Task A_document_whose_test_fails_is_skipped_reported_and_left_whole()
    {
        using var db = new SetOperationDatabase(140);
        var patch = DocumentPatch.FromOperations(
            [PatchOperation.Replace("/Group", "done"), PatchOperation.Test("/N", 3), PatchOperation.Add("/Patched", true)]);
        // Only items/3 passes the test; every other g3 document is refused.
        var status = await db.Db.PatchByQuery(SetOperationDatabase.Index, "Group:g3", patch).WaitAsync(s_wait);

        Assert.Equal(SetOperationState.Completed, status.State);
        Assert.Equal(20, status.Processed);
        Assert.Equal(1, status.Changed);
        Assert.Equal(19, status.FailedCount);
        Assert.Equal(
            Enumerable.Range(0, 140).Where(i => i % 7 == 3 && i != 3).Select(SetOperationDatabase.Key).Order(StringComparer.Ordinal),
            status.Failures.Select(f => f.Key).Order(StringComparer.Ordinal));
        Assert.All(status.Failures, f => Assert.Contains("test", f.Error, StringComparison.OrdinalIgnoreCase));
        Assert.Equal("done", (string?)db.Db.Get("items/3")!.ToJObject()["Group"]);
        // Refused documents kept every member as it was: the replace before the failed test was not applied.
        Assert.Equal("g3", (string?)db.Db.Get("items/10")!.ToJObject()["Group"]);
        Assert.Null(db.Db.Get("items/10")!.ToJObject()["Patched"]);
    }

    /// <summary>
    /// extra/0..99 in group g9, in index (etag) order, and the patch to run on them: extra/50's N is not a number, so
    /// its increment is refused.
    /// </summary>
    private static DocumentPatch SeedOneRefusedOfHundred(SetOperationDatabase db)
    {
        db.Db.Batch([.. Enumerable.Range(0, 100).Select(j => BatchCommand.Put($"extra/{j}",
            new JObject { ["Group"] = "g9", ["N"] = j == 50 ? "fifty" : j }))]);
        db.WaitForIndex();
        return DocumentPatch.FromOperations([PatchOperation.Add("/Patched", true), PatchOperation.IncrementBy("/N", 1000)]);
    }

    [Fact]
    public async Task StopOnFailure_stops_at_the_first_refused_document()
    {
        using var db = new SetOperationDatabase(7);
        var patch = SeedOneRefusedOfHundred(db);

        var status = await db.Db.PatchByQuery(SetOperationDatabase.Index, "Group:g9", patch,
            new SetOperationOptions { BatchSize = 16, StopOnFailure = true }).WaitAsync(s_wait);

        Assert.Equal(SetOperationState.Stopped, status.State);
        Assert.Equal(1, status.FailedCount);
        Assert.Equal("extra/50", Assert.Single(status.Failures).Key);
        Assert.Contains("extra/50", status.Error, StringComparison.Ordinal);
        Assert.Equal(51, status.Processed);
        Assert.Equal(50, status.Changed);
        for (var j = 0; j < 100; j++)
        {
            var data = db.Db.Get($"extra/{j}")!.ToJObject();
            Assert.Equal(j < 50, data["Patched"] is not null);
            if (j != 50)
                Assert.Equal(j < 50 ? j + 1000 : j, (int)data["N"]!);
        }
    }

    [Fact]
    public async Task Without_StopOnFailure_every_other_document_is_patched()
    {
        using var db = new SetOperationDatabase(7);
        var patch = SeedOneRefusedOfHundred(db);

        var status = await db.Db.PatchByQuery(SetOperationDatabase.Index, "Group:g9", patch,
            new SetOperationOptions { BatchSize = 16 }).WaitAsync(s_wait);

        Assert.Equal(SetOperationState.Completed, status.State);
        Assert.Equal(100, status.Processed);
        Assert.Equal(99, status.Changed);
        Assert.Equal("extra/50", Assert.Single(status.Failures).Key);
        Assert.Null(db.Db.Get("extra/50")!.ToJObject()["Patched"]);
        Assert.Equal(1099, (int)db.Db.Get("extra/99")!.ToJObject()["N"]!);
    }

    [Fact]
    public void Bad_arguments_are_refused_before_anything_starts()
    {
        using var db = new SetOperationDatabase(7);
        Assert.Throws<IndexNotFoundException>(() => db.Db.DeleteByQuery("Nope", null));
        Assert.Throws<QueryException>(() => db.Db.DeleteByQuery(SetOperationDatabase.Index, "Group:(("));
        Assert.Throws<ArgumentOutOfRangeException>(() => db.Db.DeleteByQuery(SetOperationDatabase.Index, null, new SetOperationOptions { BatchSize = 0 }));
        Assert.Empty(db.Db.GetOperations());
        Assert.Equal(7, db.Db.GetStatistics().Documents);
    }

    /// <summary>Runs on the operation's thread, after each committed batch (unlike Progress&lt;T&gt;, which posts).</summary>
    private sealed class Callback(Action<SetOperationStatus> action) : IProgress<SetOperationStatus>
    {
        public void Report(SetOperationStatus value) => action(value);
    }
}
