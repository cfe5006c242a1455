using System.Collections.Concurrent;
using Lucene.Net.Index;
using Lucene.Net.Util;
using RavenLite.Indexing.Extraction;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Persistence;

/// <summary>
/// The document key and indexed etag of every doc of one segment, read once from its <see cref="IndexFields.Version"/>
/// DocValues into arrays, so a
/// query reads a hit's key and etag with two array loads: no stored-field block is decompressed per hit.
/// </summary>
internal sealed class SegmentKeys
{
    private readonly KnownVersion?[] _versions;

    private SegmentKeys(string[] keys, long[] etags)
    {
        Keys = keys;
        Etags = etags;
        _versions = new KnownVersion?[keys.Length];
    }

    /// <summary>Per doc of the segment (deleted ones included): the document key, original casing.</summary>
    public string[] Keys { get; }

    /// <summary>Per doc: the etag of the document version indexed. Ascending in doc id order.</summary>
    public long[] Etags { get; }

    /// <summary>
    /// The version <paramref name="doc"/> names, made the first time a page holds it and kept while the segment is:
    /// storage remembers on it where the document cache keeps that version, so later pages skip the cache's lookup.
    /// Two queries may make one each at once; either serves.
    /// </summary>
    public KnownVersion Version(int doc) => _versions[doc] ??= new KnownVersion(Keys[doc], Etags[doc]);

    public static SegmentKeys Load(AtomicReader reader)
    {
        var count = reader.MaxDoc;
        var keys = new string[count];
        var etags = new long[count];
        var versions = reader.GetSortedDocValues(IndexFields.Version);
        var bytes = new BytesRef();
        for (var doc = 0; doc < count && versions is not null; doc++)
        {
            versions.Get(doc, bytes);
            if (bytes.Length < IndexFields.VersionEtagBytes)
            {
                keys[doc] = "";
                continue;
            }
            keys[doc] = IndexFields.VersionKey(bytes);
            etags[doc] = IndexFields.VersionEtag(bytes);
        }
        return new SegmentKeys(keys, etags);
    }
}

/// <summary>
/// <see cref="SegmentKeys"/> per segment core: loaded the first time a query needs a segment's hits, shared by
/// every reader of that core (a segment outlives many refreshes), and dropped when the core closes.
/// </summary>
internal sealed class SegmentKeysCache
{
    private readonly ConcurrentDictionary<object, SegmentKeys> _segments = new();

    public int Count => _segments.Count;

    public SegmentKeys Get(AtomicReader reader)
    {
        var core = reader.CoreCacheKey;
        if (_segments.TryGetValue(core, out var keys))
            return keys;
        keys = SegmentKeys.Load(reader);
        if (reader is SegmentReader segment && _segments.TryAdd(core, keys))
            segment.AddCoreDisposedListener(new DropOnClose(_segments));
        return keys;
    }

    private sealed class DropOnClose(ConcurrentDictionary<object, SegmentKeys> segments) : SegmentReader.ICoreDisposedListener
    {
        public void OnDispose(object ownerCoreCacheKey) => segments.TryRemove(ownerCoreCacheKey, out _);
    }
}
