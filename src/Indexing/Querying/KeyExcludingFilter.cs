using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Util;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Every doc but the one of a key, read from the <see cref="IndexFields.Version"/> doc values doc by doc: meant to be
/// asked only of the docs a query matches (<see cref="FilteredQuery.QUERY_FIRST_FILTER_STRATEGY"/>).
/// </summary>
/// <param name="foldedKey">The key folded as storage folds it (<see cref="IndexFields.KeyTerm"/>).</param>
internal sealed class KeyExcludingFilter(string foldedKey) : Filter
{
    public override DocIdSet GetDocIdSet(AtomicReaderContext context, IBits acceptDocs) =>
        new OtherKeys(context.AtomicReader.GetSortedDocValues(IndexFields.Version), context.AtomicReader.MaxDoc, foldedKey, acceptDocs);

    public override bool Equals(object? obj) => obj is KeyExcludingFilter other && other.FoldedKey == foldedKey;

    public override int GetHashCode() => foldedKey.GetHashCode(StringComparison.Ordinal);

    public override string ToString() => $"-{IndexFields.Version}:{foldedKey}";

    private string FoldedKey => foldedKey;

    private sealed class OtherKeys(SortedDocValues? versions, int maxDoc, string foldedKey, IBits? acceptDocs) : DocIdSet, IBits
    {
        private readonly BytesRef _value = new();
        private int _excludedOrd = -2;

        public override IBits Bits => this;

        public int Length => maxDoc;

        public bool Get(int index)
        {
            if (acceptDocs is not null && !acceptDocs.Get(index))
                return false;
            if (versions is null)
                return true;
            var ord = versions.GetOrd(index);
            if (ord < 0 || ord == _excludedOrd)
                return ord < 0;
            versions.LookupOrd(ord, _value);
            if (_value.Length < IndexFields.VersionEtagBytes || IndexFields.KeyTerm(IndexFields.VersionKey(_value)) != foldedKey)
                return true;
            _excludedOrd = ord;
            return false;
        }

        public override DocIdSetIterator GetIterator() => new AllDocs(this, maxDoc);
    }

    /// <summary>The docs <see cref="OtherKeys"/> accepts, for a strategy that iterates the filter after all.</summary>
    private sealed class AllDocs(IBits accepted, int maxDoc) : DocIdSetIterator
    {
        private int _doc = -1;

        public override int DocID => _doc;

        public override int NextDoc() => Advance(_doc + 1);

        public override int Advance(int target)
        {
            for (_doc = target; _doc < maxDoc; _doc++)
            {
                if (accepted.Get(_doc))
                    return _doc;
            }
            return _doc = NO_MORE_DOCS;
        }

        public override long GetCost() => maxDoc;
    }
}
