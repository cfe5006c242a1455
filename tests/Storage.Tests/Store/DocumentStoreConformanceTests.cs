using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Store;

/// <summary>The document store's behaviour, run against every engine.</summary>
public sealed class DocumentStoreConformanceTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [EngineTheory]
    public void Put_then_get_is_case_insensitive_and_keeps_the_original_casing(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var put = store.Put("Carts/1", Json("""{"name":"first","n":1}"""), Entity("Cart"));

        var doc = store.Get("CARTS/1");
        Assert.NotNull(doc);
        Assert.Equal("Carts/1", doc.Key);
        Assert.Equal(put.Etag, doc.Etag);
        Assert.Equal("first", doc.Data.GetProperty("name").GetString());
        Assert.Equal("Cart", doc.EntityName);
        Assert.Equal("Cart", doc.Metadata.GetProperty("Raven-Entity-Name").GetString());
        Assert.Null(store.Get("carts/2"));
    }

    [EngineTheory]
    public void Put_replaces_and_delete_removes(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.Put("a", Json("""{"v":1}"""));
        var second = store.Put("A", Json("""{"v":2}"""));

        var doc = store.Get("a")!;
        Assert.Equal(2, doc.Data.GetProperty("v").GetInt32());
        Assert.Equal(second.Etag, doc.Etag);
        Assert.Equal("A", doc.Key);

        Assert.True(store.Delete("a"));
        Assert.Null(store.Get("a"));
        Assert.False(store.Delete("a"));
    }

    [EngineTheory]
    public void Etags_strictly_increase_across_puts_deletes_and_batches(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var etags = new List<long> { store.Put("a", Json("{}")).Etag, store.Put("b", Json("{}")).Etag };
        store.Delete("a");
        etags.AddRange(store.Batch([BatchCommand.Put("c", Json("{}")), BatchCommand.Put("b", Json("{}"))]).Select(r => r.Etag!.Value));
        etags.Add(store.Put("a", Json("{}")).Etag);

        Assert.Equal(etags.Order(), etags);
        Assert.Equal(etags.Count, etags.Distinct().Count());
        Assert.Equal(etags[^1], store.GetCounts().LastEtag);
    }

    [EngineTheory]
    public void Put_with_stale_etag_throws_ConcurrencyException_and_writes_nothing(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var first = store.Put("k", Json("""{"v":1}"""));
        store.Put("k", Json("""{"v":2}"""), expectedEtag: first.Etag);
        var before = store.GetCounts();

        var ex = Assert.Throws<ConcurrencyException>(() => store.Put("k", Json("""{"v":3}"""), expectedEtag: first.Etag));
        Assert.Equal(first.Etag, ex.ExpectedEtag);
        Assert.Equal(2, store.Get("k")!.Data.GetProperty("v").GetInt32());
        Assert.Equal(before, store.GetCounts(), DocumentCountsComparer.Instance);
    }

    [EngineTheory]
    public void Expected_etag_zero_means_the_document_must_not_exist(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.Put("new", Json("{}"), expectedEtag: 0);
        Assert.Throws<ConcurrencyException>(() => store.Put("new", Json("""{"again":true}"""), expectedEtag: 0));
        Assert.Throws<ConcurrencyException>(() => store.Delete("missing", expectedEtag: 5));
        var current = store.Get("new")!.Etag;
        Assert.Throws<ConcurrencyException>(() => store.Delete("new", expectedEtag: current + 1));
        Assert.True(store.Delete("new", expectedEtag: current));
    }

    [EngineTheory]
    public void A_batch_that_fails_half_way_leaves_no_trace(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var existing = store.Put("existing", Json("""{"v":1}"""), Entity("Thing"));
        var before = store.GetCounts();

        var ex = Assert.Throws<ConcurrencyException>(() => store.Batch(
        [
            BatchCommand.Put("new/1", Json("{}"), Entity("Thing")),
            BatchCommand.Delete("existing"),
            BatchCommand.Put("new/2", Json("{}")),
            BatchCommand.Put("existing", Json("{}"), expectedEtag: existing.Etag),
        ]));

        Assert.Equal(3, ex.CommandIndex);
        Assert.Contains("Batch command 3", ex.Message, StringComparison.Ordinal);
        Assert.Null(store.Get("new/1"));
        Assert.Null(store.Get("new/2"));
        Assert.Equal(existing.Etag, store.Get("existing")!.Etag);
        Assert.Equal(before, store.GetCounts(), DocumentCountsComparer.Instance);
        Assert.Empty(store.GetTombstonesAfterEtag(0, 10));
        Assert.Equal(existing.Etag, store.GetDocumentsAfterEtag(0, 10).Single().Etag);
    }

    [EngineTheory]
    public void Documents_after_an_etag_come_in_etag_order_in_batches(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        for (var i = 0; i < 25; i++)
            store.Put($"d/{i}", Json($$"""{"i":{{i}}}"""));
        store.Put("d/3", Json("""{"i":3,"updated":true}""")); // moves d/3 to the end
        store.Delete("d/4");

        var seen = new List<Document>();
        long last = 0;
        while (store.GetDocumentsAfterEtag(last, 7) is { Count: > 0 } batch)
        {
            Assert.True(batch.Count <= 7);
            seen.AddRange(batch);
            last = batch[^1].Etag;
        }

        Assert.Equal(24, seen.Count);
        Assert.Equal(seen.Select(d => d.Etag).Order(), seen.Select(d => d.Etag));
        Assert.Equal("d/3", seen[^1].Key);
        Assert.DoesNotContain(seen, d => d.Key == "d/4");
    }

    [EngineTheory]
    public void Headers_after_an_etag_are_the_documents_feed_without_the_bodies(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        for (var i = 0; i < 25; i++)
            store.Put($"D/{i}", Json($$"""{"i":{{i}}}"""), i % 2 == 0 ? Entity("Even") : null);
        store.Put("d/3", Json("""{"i":3,"updated":true}"""));
        store.Delete("d/4");

        var documents = store.GetDocumentsAfterEtag(0, 100);
        var headers = new List<DocumentHeader>();
        long last = 0;
        while (store.GetHeadersAfterEtag(last, 7, unreadable: null) is { Count: > 0 } batch)
        {
            Assert.True(batch.Count <= 7);
            headers.AddRange(batch);
            last = batch[^1].Etag;
        }

        Assert.Equal(24, headers.Count);
        Assert.Equal(documents.Select(d => new DocumentHeader(d.Key, d.Etag, d.LastModified, d.EntityName)), headers);
        Assert.Equal("d/3", headers[^1].Key);
        Assert.Equal("Even", headers[0].EntityName);
        Assert.Null(headers[1].EntityName);
    }

    [EngineTheory]
    public void Deletes_leave_tombstones_until_purged(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.Put("Gone/1", Json("{}"));
        store.Put("gone/2", Json("{}"));
        store.Delete("gone/1");
        var second = store.Batch([BatchCommand.Delete("GONE/2"), BatchCommand.Delete("never-was")]);

        var tombstones = store.GetTombstonesAfterEtag(0, 10);
        Assert.Equal(["Gone/1", "gone/2"], tombstones.Select(t => t.Key));
        Assert.Equal(second[0].Etag, tombstones[1].Etag);
        Assert.Null(second[1].Etag);
        Assert.Single(store.GetTombstonesAfterEtag(tombstones[0].Etag, 10));

        Assert.Equal(0, store.ReadTombstonesPurgedTo());
        Assert.Equal(1, store.PurgeTombstones(tombstones[0].Etag));
        Assert.Equal(["gone/2"], store.GetTombstonesAfterEtag(0, 10).Select(t => t.Key));
        Assert.Equal(tombstones[0].Etag, store.ReadTombstonesPurgedTo());
        // A purge past the last tombstone records the last one purged, not the etag it was asked for; an empty one nothing.
        Assert.Equal(1, store.PurgeTombstones(long.MaxValue));
        Assert.Equal(0, store.PurgeTombstones(long.MaxValue));
        Assert.Equal(tombstones[1].Etag, store.ReadTombstonesPurgedTo());
    }

    [EngineTheory]
    public void Overwrites_and_deletes_record_the_version_they_replaced_until_purged(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var first = store.Put("r/1", Json("{}")).Etag;
        var other = store.Put("r/2", Json("{}")).Etag;
        var second = store.Put("R/1", Json("""{"v": 2}""")).Etag;
        var batch = store.Batch([BatchCommand.Put("r/1", Json("""{"v": 3}""")), BatchCommand.Delete("r/2"), BatchCommand.Put("r/3", Json("{}"))]);
        var (third, deleted) = (batch[0].Etag!.Value, batch[1].Etag!.Value);
        store.Delete("r/1");
        var gone = store.LastEtag;
        store.Put("r/1", Json("{}")); // a new version after a delete replaced nothing

        Assert.Equal(
            [new VersionReplacement(second, first), new VersionReplacement(third, second), new VersionReplacement(deleted, other), new VersionReplacement(gone, third)],
            store.GetReplacementsAfterEtag(0, long.MaxValue, 10));
        Assert.Equal([new VersionReplacement(third, second)], store.GetReplacementsAfterEtag(second, deleted - 1, 10));
        Assert.Equal(2, store.GetReplacementsAfterEtag(0, long.MaxValue, 2).Count);

        // Only records of overwrites up to there: the purge point moves all the same (an index behind it missed them).
        Assert.Equal(0, store.PurgeTombstones(third));
        Assert.Equal([new VersionReplacement(deleted, other), new VersionReplacement(gone, third)], store.GetReplacementsAfterEtag(0, long.MaxValue, 10));
        Assert.Equal(third, store.ReadTombstonesPurgedTo());
        store.PurgeTombstones(deleted);
        Assert.Equal([new VersionReplacement(gone, third)], store.GetReplacementsAfterEtag(0, long.MaxValue, 10));
        store.PurgeTombstones(long.MaxValue);
        Assert.Empty(store.GetReplacementsAfterEtag(0, long.MaxValue, 10));
    }

    [EngineTheory]
    public void Counts_are_maintained_per_entity_name(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.Put("c/1", Json("{}"), Entity("Cart"));
        store.Put("c/2", Json("{}"), Entity("Cart"));
        store.Put("u/1", Json("{}"), Entity("User"));
        store.Put("plain", Json("{}"));
        store.Put("c/2", Json("{}"), Entity("User")); // moves between entities
        store.Delete("c/1");

        var counts = store.GetCounts();
        Assert.Equal(3, counts.Documents);
        Assert.False(counts.ByEntityName.ContainsKey("Cart"));
        Assert.Equal(2, counts.ByEntityName["User"]);
    }

    [EngineTheory]
    public void A_batch_sharing_one_metadata_among_puts_counts_each_put_under_its_own_entity_name(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var cart = Entity("Cart");
        var user = Entity("User");
        store.Batch(
        [
            BatchCommand.Put("c/1", Json("{}"), cart), BatchCommand.Put("c/2", Json("{}"), cart), BatchCommand.Put("u/1", Json("{}"), user),
            BatchCommand.Put("c/3", Json("{}"), cart), BatchCommand.Put("plain", Json("{}")), BatchCommand.Put("u/2", Json("{}"), user),
        ]);

        var counts = store.GetCounts();
        Assert.Equal(3, counts.ByEntityName["Cart"]);
        Assert.Equal(2, counts.ByEntityName["User"]);
        Assert.Equal("Cart", store.Get("c/3")!.EntityName);
        Assert.Null(store.Get("plain")!.EntityName);
    }

    [EngineTheory]
    public void Paging_over_all_documents_is_newest_first_and_covers_each_once(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        for (var i = 0; i < 23; i++)
            store.Put($"p/{i}", Json("{}"));

        var pages = Enumerable.Range(0, 5).Select(p => store.GetDocuments(p * 5, 5)).ToList();
        var keys = pages.SelectMany(p => p).Select(d => d.Key).ToList();
        Assert.Equal(Enumerable.Range(0, 23).Reverse().Select(i => $"p/{i}"), keys);
        Assert.Equal(3, pages[4].Count);
        Assert.Empty(store.GetDocuments(100, 5));
    }

    [EngineTheory]
    public void Reopen_after_dispose_keeps_everything(StorageEngineKind engine)
    {
        DocumentCounts before;
        using (var store = Open(engine, _dir.Path))
        {
            store.Batch([BatchCommand.Put("a", Json("""{"x":"1"}"""), Entity("E")), BatchCommand.Put("b", Json("{}"))]);
            store.Delete("b");
            before = store.GetCounts();
        }
        using (var reopened = Open(engine, _dir.Path))
        {
            Assert.Equal("1", reopened.Get("A")!.Data.GetProperty("x").GetString());
            Assert.Equal(before, reopened.GetCounts(), DocumentCountsComparer.Instance);
            Assert.Single(reopened.GetTombstonesAfterEtag(0, 10));
            var next = reopened.Put("c", Json("{}"));
            Assert.Equal(before.LastEtag + 1, next.Etag);
        }
    }

    [EngineTheory]
    public void A_store_of_schema_version_1_is_moved_to_2_and_one_newer_than_this_build_is_refused(StorageEngineKind engine)
    {
        using (var store = Open(engine, _dir.Path))
        {
            store.Put("a", Json("{}"));
            store.Engine.Write(tx => { StoredValues.WriteInt64(tx, store.StateTable, "schema-version", 1); return 0; });
        }
        using (var reopened = Open(engine, _dir.Path))
        {
            using (var tx = reopened.Engine.BeginRead())
                Assert.Equal(2, StoredValues.ReadInt64(tx, reopened.StateTable, "schema-version"));
            Assert.NotNull(reopened.Get("a"));
            reopened.Engine.Write(tx => { StoredValues.WriteInt64(tx, reopened.StateTable, "schema-version", 3); return 0; });
        }
        var refused = Assert.Throws<StorageCorruptedException>(() => Open(engine, _dir.Path));
        Assert.Contains("schema version 3", refused.Message, StringComparison.Ordinal);
    }

    [EngineTheory]
    public void Multi_get_returns_documents_in_request_order_with_nulls(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.Put("x", Json("""{"n":"x"}"""));
        store.Put("y", Json("""{"n":"y"}"""));

        var docs = store.Get(["y", "missing", "X"]);
        Assert.Equal("y", docs[0]!.Key);
        Assert.Null(docs[1]);
        Assert.Equal("x", docs[2]!.Key);
    }
}

internal sealed class DocumentCountsComparer : IEqualityComparer<DocumentCounts>
{
    public static readonly DocumentCountsComparer Instance = new();

    public bool Equals(DocumentCounts? x, DocumentCounts? y) =>
        x!.Documents == y!.Documents && x.LastEtag == y.LastEtag &&
        x.ByEntityName.OrderBy(p => p.Key).SequenceEqual(y.ByEntityName.OrderBy(p => p.Key));

    public int GetHashCode(DocumentCounts obj) => obj.Documents.GetHashCode();
}
