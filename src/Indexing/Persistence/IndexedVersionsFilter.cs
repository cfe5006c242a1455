using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Util;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Persistence;

/// <summary>
/// The docs holding the document versions with the given etags, found through each segment's etags
/// (<see cref="SegmentKeys.Etags"/>, read once per segment from the <see cref="IndexFields.Version"/> doc values and
/// shared with the queries): what an index deletes when storage says a write replaced those versions
/// (<c>IIndexedDocuments.GetReplacementsAfterEtag</c>). No per-document key term is indexed for it.
/// </summary>
/// <remarks>
/// A segment's docs are in the order they were indexed, which is etag order (merges join adjacent segments only:
/// <see cref="LuceneIndex"/>), so a version's docs are found by binary search. Should a segment ever break that order,
/// its etags are scanned instead: slower, never wrong.
/// </remarks>
internal sealed class IndexedVersionsFilter : Filter
{
    private readonly long[] _etags;
    private readonly SegmentKeysCache _segments;

    /// <param name="etags">The versions' etags; sorted here.</param>
    /// <param name="segments">The index's per-segment etags.</param>
    public IndexedVersionsFilter(long[] etags, SegmentKeysCache segments)
    {
        _etags = etags;
        _segments = segments;
        Array.Sort(_etags);
    }

    public override DocIdSet? GetDocIdSet(AtomicReaderContext context, IBits acceptDocs)
    {
        var keys = _segments.Get(context.AtomicReader);
        var indexed = keys.Etags;
        var ascending = keys.EtagsAscending;
        if (indexed.Length == 0 || (ascending && (_etags[^1] < indexed[0] || _etags[0] > indexed[^1])))
            return null;
        List<int>? docs = null;
        foreach (var etag in _etags)
        {
            var at = ascending ? Array.BinarySearch(indexed, etag) : Array.IndexOf(indexed, etag);
            if (at < 0)
                continue;
            docs ??= [];
            while (at > 0 && indexed[at - 1] == etag)
                at--;
            for (; at < indexed.Length && indexed[at] == etag; at++)
                docs.Add(at);
        }
        if (docs is null)
            return null;
        docs.Sort();
        return new SortedDocs([.. docs]);
    }

    public override bool Equals(object? obj) => obj is IndexedVersionsFilter other && other._etags.AsSpan().SequenceEqual(_etags);

    public override int GetHashCode() => _etags.Length == 0 ? 0 : HashCode.Combine(_etags.Length, _etags[0], _etags[^1]);

    public override string ToString() => $"{IndexFields.Version}:[{string.Join(", ", _etags)}]";

    /// <summary>A few docs of one segment, ascending.</summary>
    private sealed class SortedDocs(int[] docs) : DocIdSet
    {
        public override DocIdSetIterator GetIterator() => new Iterator(docs);

        private sealed class Iterator(int[] docs) : DocIdSetIterator
        {
            private int _index = -1;

            public override int DocID => _index < 0 ? -1 : _index < docs.Length ? docs[_index] : NO_MORE_DOCS;

            public override int NextDoc()
            {
                if (_index < docs.Length)
                    _index++;
                return DocID;
            }

            public override int Advance(int target)
            {
                int doc;
                while ((doc = NextDoc()) < target)
                {
                }
                return doc;
            }

            public override long GetCost() => docs.Length;
        }
    }
}
