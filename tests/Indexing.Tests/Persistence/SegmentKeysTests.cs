using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Store;
using Lucene.Net.Util;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Persistence;

namespace RavenLite.Indexing.Tests.Persistence;

/// <summary>A segment keeps each doc's etag; a doc's key is read when a page holds it, its version kept from the second time, and versions stay within a bound.</summary>
public sealed class SegmentKeysTests : IDisposable
{
    private readonly RAMDirectory _directory = new();
    private readonly DirectoryReader _reader;

    public SegmentKeysTests()
    {
        using (var writer = new IndexWriter(_directory, new IndexWriterConfig(LuceneSettings.Version, null)))
        {
            for (var i = 1; i <= 10; i++)
            {
                var version = new BytesRef();
                IndexFields.SetVersion(version, 100 + i, $"Carts/{i}/ünï");
                writer.AddDocument(new Document { new SortedDocValuesField(IndexFields.Version, version) });
            }
            writer.AddDocument(new Document { new StringField("other", "x", Field.Store.NO) });
        }
        _reader = DirectoryReader.Open(_directory);
    }

    public void Dispose()
    {
        _reader.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void Each_doc_names_its_key_and_etag_and_a_doc_without_a_version_names_none()
    {
        var leaf = Assert.Single(_reader.Leaves).AtomicReader;
        var keys = new SegmentKeysCache().Get(leaf);

        Assert.Equal([.. Enumerable.Range(101, 10).Select(e => (long)e), 0L], keys.Etags);
        var third = keys.Version(leaf, 2);
        Assert.Equal(("Carts/3/ünï", 103L), (third.Key, third.Etag));
        Assert.Equal(("", 0L), (keys.Version(leaf, 10).Key, keys.Version(leaf, 10).Etag));
    }

    [Fact]
    public void A_version_is_kept_from_the_second_time_a_page_holds_its_doc()
    {
        var leaf = Assert.Single(_reader.Leaves).AtomicReader;
        var keys = new SegmentKeysCache().Get(leaf);

        var first = keys.Version(leaf, 4);
        var second = keys.Version(leaf, 4);

        Assert.NotSame(first, second);
        Assert.Equal((first.Key, first.Etag), (second.Key, second.Etag));
        Assert.Same(second, keys.Version(leaf, 4));
        Assert.Same(second, keys.Version(leaf, 4));
    }

    [Fact]
    public void A_scan_that_pages_each_doc_once_keeps_no_version_and_so_forgets_none()
    {
        var leaf = Assert.Single(_reader.Leaves).AtomicReader;
        var keys = new SegmentKeysCache(maxVersions: 3).Get(leaf);
        var kept = keys.Version(leaf, 0);
        kept = keys.Version(leaf, 0);

        // Ten docs paged once each would be past the bound of three if each were kept, forgetting doc 0's version.
        for (var doc = 1; doc < 11; doc++)
            keys.Version(leaf, doc);

        Assert.Same(kept, keys.Version(leaf, 0));
    }

    [Fact]
    public void Past_the_bound_versions_are_forgotten_and_kept_again_from_their_second_read()
    {
        var leaf = Assert.Single(_reader.Leaves).AtomicReader;
        var keys = new SegmentKeysCache(maxVersions: 3).Get(leaf);
        keys.Version(leaf, 0);
        var first = keys.Version(leaf, 0);

        for (var doc = 1; doc < 4; doc++)
        {
            keys.Version(leaf, doc);
            keys.Version(leaf, doc);
        }
        var again = keys.Version(leaf, 0);

        Assert.NotSame(first, again);
        Assert.Equal((first.Key, first.Etag), (again.Key, again.Etag));
        var keptAgain = keys.Version(leaf, 0);
        Assert.NotSame(again, keptAgain);
        Assert.Same(keptAgain, keys.Version(leaf, 0));
    }

    [Fact]
    public void Docs_in_different_blocks_keep_their_own_versions()
    {
        using var directory = new RAMDirectory();
        using (var writer = new IndexWriter(directory, new IndexWriterConfig(LuceneSettings.Version, null)))
        {
            for (var i = 0; i < SegmentKeys.BlockSize * 2 + 3; i++)
            {
                var version = new BytesRef();
                IndexFields.SetVersion(version, 1 + i, $"k/{i}");
                writer.AddDocument(new Document { new SortedDocValuesField(IndexFields.Version, version) });
            }
        }
        using var reader = DirectoryReader.Open(directory);
        var leaf = Assert.Single(reader.Leaves).AtomicReader;
        var keys = new SegmentKeysCache().Get(leaf);
        int[] docs = [0, SegmentKeys.BlockSize - 1, SegmentKeys.BlockSize, SegmentKeys.BlockSize * 2 + 2];

        foreach (var doc in docs)
            keys.Version(leaf, doc);
        var kept = docs.Select(doc => keys.Version(leaf, doc)).ToArray();

        Assert.Equal(docs.Select(doc => ($"k/{doc}", 1L + doc)), kept.Select(v => (v.Key, v.Etag)));
        Assert.All(docs.Zip(kept), pair => Assert.Same(pair.Second, keys.Version(leaf, pair.First)));
    }
}
