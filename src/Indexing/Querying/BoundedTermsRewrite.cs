using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Util;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Lucene's constant-score filter rewrite with bounds: a multi-term query (prefix, wildcard, regular expression, range)
/// becomes the set of documents its terms match, computed per segment as a bit set, but it may match at most
/// <see cref="MultiTermLimits.MaxExpandedTerms"/> terms of a segment (else <see cref="LimitExceededException"/>), and the
/// enumeration stops when the search is cancelled (<see cref="QueryCancellation"/>).
/// </summary>
internal sealed class BoundedTermsRewrite : MultiTermQuery.RewriteMethod
{
    /// <summary>The one instance (it has no state).</summary>
    public static readonly BoundedTermsRewrite Instance = new();

    private BoundedTermsRewrite()
    {
    }

    /// <inheritdoc />
    public override Query Rewrite(IndexReader reader, MultiTermQuery query) =>
        new ConstantScoreQuery(new TermsFilter(query, this)) { Boost = query.Boost };

    private TermsEnum Enumerate(MultiTermQuery query, Terms terms) => GetTermsEnum(query, terms, new AttributeSource());

    /// <summary>The documents of the terms <c>query</c> matches, one segment at a time.</summary>
    private sealed class TermsFilter(MultiTermQuery query, BoundedTermsRewrite rewrite) : Filter
    {
        public override DocIdSet? GetDocIdSet(AtomicReaderContext context, IBits acceptDocs)
        {
            var terms = context.AtomicReader.GetTerms(query.Field);
            if (terms is null)
                return null;
            var termsEnum = rewrite.Enumerate(query, terms);
            if (!termsEnum.MoveNext())
                return null;
            var matches = new FixedBitSet(context.AtomicReader.MaxDoc);
            DocsEnum? docs = null;
            var count = 0;
            do
            {
                if (++count > MultiTermLimits.MaxExpandedTerms)
                {
                    throw new LimitExceededException(nameof(MultiTermLimits.MaxExpandedTerms),
                        $"The query's '{query.Field}' term pattern matches more than {MultiTermLimits.MaxExpandedTerms:N0} terms of one index segment; make it more selective");
                }
                if ((count & 255) == 0)
                    QueryCancellation.ThrowIfCancellationRequested();
                docs = termsEnum.Docs(acceptDocs, docs, DocsFlags.NONE);
                int doc;
                while ((doc = docs.NextDoc()) != DocIdSetIterator.NO_MORE_DOCS)
                    matches.Set(doc);
            }
            while (termsEnum.MoveNext());
            return matches;
        }

        public override bool Equals(object? obj) => obj is TermsFilter other && other.QueryEquals(query);

        private bool QueryEquals(MultiTermQuery other) => query.Equals(other);

        public override int GetHashCode() => query.GetHashCode();

        public override string ToString() => query.ToString();
    }
}
