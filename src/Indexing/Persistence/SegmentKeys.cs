using System.Collections.Concurrent;
using Lucene.Net.Index;
using Lucene.Net.Util;
using RavenLite.Indexing.Extraction;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Persistence;

/// <summary>
/// The indexed etag of every doc of one segment, read once from its <see cref="IndexFields.Version"/> DocValues into an
/// array, and the <see cref="KnownVersion"/> of each doc a page has held: a query reads a hit's etag with one array
/// load and, for a doc paged before, its version with another; no stored-field block is decompressed per hit.
/// </summary>
/// <remarks>
/// Keys are not kept per doc: a doc's key is read from the DocValues the first time a page holds it. What the segment
/// keeps for every doc is 16 bytes (an etag and a version slot), so a ten-million-document index costs 160 MB here
/// however much of it is read; the versions themselves are bounded by <see cref="SegmentKeysCache.MaxVersions"/>.
/// </remarks>
internal sealed class SegmentKeys
{
    private readonly KnownVersion?[] _versions;
    private readonly SegmentKeysCache _owner;

    private SegmentKeys(long[] etags, SegmentKeysCache owner)
    {
        Etags = etags;
        _versions = new KnownVersion?[etags.Length];
        _owner = owner;
    }

    /// <summary>Per doc of the segment (deleted ones included): the etag of the document version indexed. Ascending in doc id order.</summary>
    public long[] Etags { get; }

    /// <summary>
    /// The version <paramref name="doc"/> names, made the first time a page holds it (its key read from
    /// <paramref name="reader"/>, a reader of this segment, on the calling thread) and kept while the segment is, within
    /// the cache's bound: storage remembers on it where the document cache keeps that version, so later pages skip the
    /// cache's lookup. Two queries may make one each at once; either serves.
    /// </summary>
    public KnownVersion Version(AtomicReader reader, int doc)
    {
        if (_versions[doc] is { } known)
            return known;
        var version = new KnownVersion(ReadKey(reader, doc), Etags[doc]);
        _versions[doc] = version;
        _owner.Made();
        return version;
    }

    /// <summary>Forgets every version made (the cache's bound was reached); they are made again as pages hold them.</summary>
    public void Forget() => Array.Clear(_versions);

    private static string ReadKey(AtomicReader reader, int doc)
    {
        // Per thread: Lucene keeps a DocValues instance per thread and segment, so concurrent queries do not share one.
        var versions = reader.GetSortedDocValues(IndexFields.Version);
        if (versions is null)
            return "";
        var bytes = new BytesRef();
        versions.Get(doc, bytes);
        return bytes.Length < IndexFields.VersionEtagBytes ? "" : IndexFields.VersionKey(bytes);
    }

    public static SegmentKeys Load(AtomicReader reader, SegmentKeysCache owner)
    {
        var count = reader.MaxDoc;
        var etags = new long[count];
        var versions = reader.GetSortedDocValues(IndexFields.Version);
        var bytes = new BytesRef();
        for (var doc = 0; doc < count && versions is not null; doc++)
        {
            versions.Get(doc, bytes);
            if (bytes.Length >= IndexFields.VersionEtagBytes)
                etags[doc] = IndexFields.VersionEtag(bytes);
        }
        return new SegmentKeys(etags, owner);
    }
}

/// <summary>
/// <see cref="SegmentKeys"/> per segment core: loaded the first time a query needs a segment's hits, shared by
/// every reader of that core (a segment outlives many refreshes), and dropped when the core closes.
/// </summary>
internal sealed class SegmentKeysCache
{
    /// <summary>
    /// At most about this many <see cref="KnownVersion"/>s are kept over all segments (a key and two longs each, some
    /// 100 bytes): past it every segment forgets its versions. The pages read again soon make theirs again at once.
    /// </summary>
    public const int MaxVersions = 262_144;

    private readonly ConcurrentDictionary<object, SegmentKeys> _segments = new();
    private readonly int _maxVersions;
    private int _made;

    /// <param name="maxVersions">The bound, <see cref="MaxVersions"/> unless a test wants a small one.</param>
    public SegmentKeysCache(int maxVersions = MaxVersions) => _maxVersions = maxVersions;

    public int Count => _segments.Count;

    /// <summary>Counts a version made; past the bound, every segment forgets its versions.</summary>
    public void Made()
    {
        if (Interlocked.Increment(ref _made) <= _maxVersions)
            return;
        Interlocked.Exchange(ref _made, 0);
        foreach (var segment in _segments.Values)
            segment.Forget();
    }

    public SegmentKeys Get(AtomicReader reader)
    {
        var core = reader.CoreCacheKey;
        if (_segments.TryGetValue(core, out var keys))
            return keys;
        keys = SegmentKeys.Load(reader, this);
        if (reader is SegmentReader segment && _segments.TryAdd(core, keys))
            segment.AddCoreDisposedListener(new DropOnClose(_segments));
        return keys;
    }

    private sealed class DropOnClose(ConcurrentDictionary<object, SegmentKeys> segments) : SegmentReader.ICoreDisposedListener
    {
        public void OnDispose(object ownerCoreCacheKey) => segments.TryRemove(ownerCoreCacheKey, out _);
    }
}
