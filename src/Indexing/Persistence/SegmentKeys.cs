using System.Collections.Concurrent;
using Lucene.Net.Index;
using Lucene.Net.Util;
using RavenLite.Indexing.Extraction;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Persistence;

/// <summary>
/// The indexed etag of every doc of one segment, read once from its <see cref="IndexFields.Version"/> DocValues into an
/// array, and the <see cref="KnownVersion"/> of each doc pages keep returning: a query reads a hit's etag with one array
/// load and, for a doc paged before, its version with two more; no stored-field block is decompressed per hit.
/// </summary>
/// <remarks>
/// What the segment keeps for every doc is its etag (8 bytes) and a bit; a ten-million-document index costs 81 MB
/// here however much of it is read. A doc's key is read from the DocValues when a page holds it, and its version is
/// kept only the second time a page holds it since the versions were last forgotten: a scan that reads every document
/// once (an export, paging through <c>*:*</c>) would otherwise fill the bound with versions nobody asks for again,
/// which live long enough to reach the GC's oldest generation and die there, the heap growing by as much before a full
/// collection. Kept versions sit in blocks of <see cref="BlockSize"/> docs made on first use, so memory follows what is
/// asked for again, within <see cref="SegmentKeysCache.MaxVersions"/>.
/// </remarks>
internal sealed class SegmentKeys
{
    /// <summary>Docs per block of kept versions: an 8 KB array, made when a doc in it is first kept.</summary>
    public const int BlockSize = 1 << BlockShift;

    private const int BlockShift = 10;

    private readonly KnownVersion?[]?[] _blocks;
    private readonly ulong[] _pagedOnce;
    private readonly SegmentKeysCache _owner;

    private SegmentKeys(long[] etags, SegmentKeysCache owner)
    {
        Etags = etags;
        EtagsAscending = IsAscending(etags);
        _blocks = new KnownVersion?[]?[(etags.Length + BlockSize - 1) >> BlockShift];
        _pagedOnce = new ulong[(etags.Length + 63) >> 6];
        _owner = owner;
    }

    /// <summary>Per doc of the segment (deleted ones included): the etag of the document version indexed. Ascending in doc id order.</summary>
    public long[] Etags { get; }

    /// <summary>
    /// Whether <see cref="Etags"/> never falls from one doc to the next, as indexing in etag order and merging adjacent
    /// segments only keep it; what relies on it checks, rather than trusts it.
    /// </summary>
    public bool EtagsAscending { get; }

    private static bool IsAscending(long[] etags)
    {
        for (var doc = 1; doc < etags.Length; doc++)
        {
            if (etags[doc] < etags[doc - 1])
                return false;
        }
        return true;
    }

    /// <summary>
    /// The version <paramref name="doc"/> names (its key read from <paramref name="reader"/>, a reader of this segment,
    /// on the calling thread). The second time a page holds the doc it is kept while the segment is, within the
    /// cache's bound: storage remembers on it where the document cache keeps that version, so later pages skip the
    /// cache's lookup. Two queries may make one each at once; either serves.
    /// </summary>
    public KnownVersion Version(AtomicReader reader, int doc)
    {
        ref var block = ref _blocks[doc >> BlockShift];
        if (Volatile.Read(ref block) is { } kept && kept[doc & (BlockSize - 1)] is { } known)
            return known;
        var version = new KnownVersion(ReadKey(reader, doc), Etags[doc]);
        if (!PagedBefore(doc))
            return version;
        if (Volatile.Read(ref block) is not { } blockNow)
        {
            var made = new KnownVersion?[BlockSize];
            blockNow = Interlocked.CompareExchange(ref block, made, null) ?? made;
        }
        blockNow[doc & (BlockSize - 1)] = version;
        _owner.Made();
        return version;
    }

    /// <summary>Whether a page has held <paramref name="doc"/> since the versions were last forgotten; marks it held.</summary>
    private bool PagedBefore(int doc)
    {
        ref var word = ref _pagedOnce[doc >> 6];
        var bit = 1UL << (doc & 63);
        return (Interlocked.Or(ref word, bit) & bit) != 0;
    }

    /// <summary>Forgets every version kept and which docs were paged (the cache's bound was reached); both start again as pages hold docs.</summary>
    public void Forget()
    {
        Array.Clear(_blocks);
        Array.Clear(_pagedOnce);
    }

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
    /// 100 bytes): past it every segment forgets its versions. The pages read again soon keep theirs again from their
    /// second read.
    /// </summary>
    public const int MaxVersions = 262_144;

    private readonly ConcurrentDictionary<object, SegmentKeys> _segments = new();
    private readonly int _maxVersions;
    private int _made;

    /// <param name="maxVersions">The bound, <see cref="MaxVersions"/> unless a test wants a small one.</param>
    public SegmentKeysCache(int maxVersions = MaxVersions) => _maxVersions = maxVersions;

    public int Count => _segments.Count;

    /// <summary>Counts a version kept; past the bound, every segment forgets its versions.</summary>
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
