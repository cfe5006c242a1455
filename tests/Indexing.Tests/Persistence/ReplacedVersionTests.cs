using Lucene.Net.Index;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Persistence;

/// <summary>
/// An index keeps one Lucene document per stored document, the version it last indexed: a version a write replaced is
/// found by its etag (storage records what each overwrite and delete replaced) and deleted, however many writes of the
/// key the index did not see in between, across batches, refreshes, commits and crashes.
/// </summary>
public sealed class ReplacedVersionTests : IDisposable
{
    private static readonly IndexDefinition s_definition = TestDefinitions.Simple("Things/ByName");
    private readonly TestIndexes _db = new();
    private readonly IndexingOptions _options;
    private readonly IDisposable _storeIndexingPaused;
    private DocumentIndex _index;

    public ReplacedVersionTests()
    {
        // The store's own indexer would purge the replacement records past its indexes, which are not this one.
        _storeIndexingPaused = _db.Indexes.PauseIndexing();
        _options = new IndexingOptions { DataDirectory = Path.Combine(_db.Directory, "replaced") };
        _index = DocumentIndex.CreateEmpty(s_definition, _options);
    }

    public void Dispose()
    {
        _index.Dispose();
        _storeIndexingPaused.Dispose();
        _db.Dispose();
    }

    [Fact]
    public void A_key_written_twice_before_the_index_saw_either_write_leaves_one_document()
    {
        _db.Put("things/1", """{"name": "a"}""");
        IndexUpTo(_db.Documents.LastEtag);
        _db.Put("things/1", """{"name": "b"}""");
        _db.Put("Things/1", """{"name": "c"}""");

        IndexUpTo(_db.Documents.LastEtag);

        Assert.Equal(new[] { ("things/1", _db.Documents.LastEtag) }, IndexedVersions());
        Assert.Equal(1, Count("Value:c"));
        Assert.Equal(0, Count("Value:a"));
    }

    [Fact]
    public void A_key_deleted_and_written_again_before_the_index_saw_either_leaves_the_new_document_only()
    {
        _db.Put("things/1", """{"name": "a"}""");
        _db.Put("things/2", """{"name": "a"}""");
        IndexUpTo(_db.Documents.LastEtag);
        _db.Documents.Delete("things/1");
        _db.Put("things/1", """{"name": "b"}""");
        _db.Documents.Delete("things/2");

        IndexUpTo(_db.Documents.LastEtag);

        Assert.Equal(new[] { ("things/1", _db.Documents.LastEtag - 1) }, IndexedVersions());
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    public void After_random_writes_indexed_at_random_points_the_index_holds_each_key_once_at_the_version_it_reached(int seed)
    {
        var random = new Random(seed);
        var history = new List<(long Etag, string Key, bool Deleted)>();
        for (var step = 0; step < 600; step++)
        {
            var key = $"things/{random.Next(15)}";
            if (random.Next(3) == 0)
                key = key.ToUpperInvariant();
            switch (random.Next(20))
            {
                case < 11:
                    history.Add((_db.Documents.Put(key, DocumentContent.FromJson($$"""{"name": "v{{step}}"}""")).Etag, key, false));
                    break;
                case < 14:
                    if (_db.Documents.Delete(key))
                        history.Add((_db.Documents.LastEtag, key, true));
                    break;
                case < 17:
                    IndexUpTo(random.NextInt64(_index.WrittenEtag, _db.Documents.LastEtag + 1), random.Next(1, 9));
                    break;
                case 17:
                    _index.Refresh();
                    CheckPartlyIndexed(history, _index.State.LastIndexedEtag);
                    break;
                case 18:
                    _index.CommitNow();
                    break;
                default:
                    // A crash: everything indexed since the last commit is lost, and indexed again from there.
                    _index.Abandon();
                    _index = DocumentIndex.Open(s_definition, _options, _ => { }, logMissing: false);
                    break;
            }
        }
        IndexUpTo(_db.Documents.LastEtag);
        Assert.Equal(Expected(history, _db.Documents.LastEtag), IndexedVersions());
    }

    [Fact]
    public async Task A_refresh_beside_the_indexer_never_shows_a_batch_of_updates_without_the_documents_it_replaced_or_added()
    {
        const int Keys = 400;
        for (var i = 0; i < Keys; i++)
            _db.Put($"things/{i}", """{"name": "first"}""");
        IndexUpTo(_db.Documents.LastEtag);
        var stop = 0;
        var refresher = Task.Factory.StartNew(() =>
        {
            var counts = new List<int>();
            while (Volatile.Read(ref stop) == 0)
            {
                _index.Refresh();
                counts.Add(LiveCount());
            }
            return counts;
        }, TaskCreationOptions.LongRunning);

        for (var round = 0; round < 20; round++)
        {
            _db.Documents.Batch([.. Enumerable.Range(0, Keys).Select(i => BatchCommand.Put($"things/{i}", DocumentContent.FromJson($$"""{"name": "round {{round}}"}""")))]);
            // Batches of a few documents each, back to back: the refresher runs beside them.
            while (_index.WrittenEtag < _db.Documents.LastEtag)
            {
                using var batch = IndexingBatch.Read(_db.Documents, _index.WrittenEtag, _db.Documents.LastEtag, 10, json: true);
                _index.Apply(batch, DateTimeOffset.UtcNow);
            }
        }
        Volatile.Write(ref stop, 1);
        var seen = await refresher;

        Assert.NotEmpty(seen);
        Assert.All(seen, count => Assert.Equal(Keys, count));
    }

    /// <summary>
    /// What an index that has read up to <paramref name="etag"/> holds: at most one version per key, each the key's last
    /// write up to there; and every such version still current in storage (the index read it as current).
    /// </summary>
    private void CheckPartlyIndexed(List<(long Etag, string Key, bool Deleted)> history, long etag)
    {
        var indexed = IndexedVersions();
        var expected = Expected(history, etag);
        Assert.Equal(indexed.Count, indexed.Select(version => version.Item1).Distinct().Count());
        Assert.All(indexed, version => Assert.Contains(version, expected));
        var current = _db.Documents.Get([.. expected.Select(version => version.Item1)]);
        for (var i = 0; i < expected.Count; i++)
        {
            if (current[i]?.Etag == expected[i].Item2)
                Assert.Contains(expected[i], indexed);
        }
    }

    /// <summary>Each key's last write up to <paramref name="etag"/>, when it is not a delete: what the index must hold.</summary>
    private static List<(string, long)> Expected(List<(long Etag, string Key, bool Deleted)> history, long etag) =>
    [
        .. history.Where(write => write.Etag <= etag)
            .GroupBy(write => write.Key.ToLowerInvariant())
            .Select(writes => writes.MaxBy(write => write.Etag))
            .Where(write => !write.Deleted)
            .Select(write => (write.Key.ToLowerInvariant(), write.Etag))
            .OrderBy(version => version.Item1, StringComparer.Ordinal),
    ];

    private void IndexUpTo(long etag, int batchSize = 100)
    {
        while (_index.WrittenEtag < etag)
        {
            using var batch = IndexingBatch.Read(_db.Documents, _index.WrittenEtag, etag, batchSize, json: true);
            _index.Apply(batch, DateTimeOffset.UtcNow);
        }
        _index.Refresh();
    }

    /// <summary>The live documents of the index: each one's key (folded) and etag, by key.</summary>
    private List<(string, long)> IndexedVersions()
    {
        var searcher = _index.Lucene.Searchers.Acquire();
        try
        {
            var versions = new List<(string, long)>();
            foreach (var leaf in searcher.IndexReader.Leaves)
            {
                var reader = leaf.AtomicReader;
                var values = reader.GetSortedDocValues(IndexFields.Version);
                var live = reader.LiveDocs;
                var bytes = new Lucene.Net.Util.BytesRef();
                for (var doc = 0; doc < reader.MaxDoc && values is not null; doc++)
                {
                    if (live is not null && !live.Get(doc))
                        continue;
                    values.Get(doc, bytes);
                    versions.Add((IndexFields.VersionKey(bytes).ToLowerInvariant(), IndexFields.VersionEtag(bytes)));
                }
            }
            return [.. versions.OrderBy(version => version.Item1, StringComparer.Ordinal)];
        }
        finally
        {
            _index.Lucene.Searchers.Release(searcher);
        }
    }

    private int LiveCount()
    {
        var searcher = _index.Lucene.Searchers.Acquire();
        try
        {
            return searcher.IndexReader.NumDocs;
        }
        finally
        {
            _index.Lucene.Searchers.Release(searcher);
        }
    }

    private int Count(string query)
    {
        var searcher = _index.Lucene.Searchers.Acquire();
        try
        {
            return searcher.Search(_index.ParseQuery(query), 10).TotalHits;
        }
        finally
        {
            _index.Lucene.Searchers.Release(searcher);
        }
    }
}
