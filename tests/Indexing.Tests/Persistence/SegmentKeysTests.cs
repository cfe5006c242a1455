using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Store;
using Lucene.Net.Util;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Persistence;

namespace RavenLite.Indexing.Tests.Persistence;

/// <summary>A segment keeps each doc's etag; a doc's key is read when a page first holds it, and versions stay within a bound.</summary>
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
        Assert.Same(third, keys.Version(leaf, 2));
        Assert.Equal(("", 0L), (keys.Version(leaf, 10).Key, keys.Version(leaf, 10).Etag));
    }

    [Fact]
    public void Past_the_bound_versions_are_forgotten_and_made_again_alike()
    {
        var leaf = Assert.Single(_reader.Leaves).AtomicReader;
        var keys = new SegmentKeysCache(maxVersions: 3).Get(leaf);
        var first = keys.Version(leaf, 0);

        for (var doc = 1; doc < 4; doc++)
            keys.Version(leaf, doc);
        var again = keys.Version(leaf, 0);

        Assert.NotSame(first, again);
        Assert.Equal((first.Key, first.Etag), (again.Key, again.Etag));
        Assert.Same(again, keys.Version(leaf, 0));
    }
}
