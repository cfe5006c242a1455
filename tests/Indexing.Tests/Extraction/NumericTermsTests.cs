using Lucene.Net.Index;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Extraction;

/// <summary>Numbers are indexed as trie terms of <see cref="NumericTerms.PrecisionStep"/> bits, and ranges read them with the same step.</summary>
public sealed class NumericTermsTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public void Dispose() => _db.Dispose();

    [Fact]
    public void A_typed_number_is_indexed_as_eight_trie_terms_and_found_by_ranges_and_equality()
    {
        using (_db.Indexes.PauseIndexing())
        {
            _db.Put("orders/1", """{"Weight": 3.25}""", "Order");
            _db.Put("orders/2", """{"Weight": 1234567.5}""", "Order");
        }
        var definition = RavenLite.Indexing.AutoIndexes.AutoIndexes.Define("Order", ["Weight"], new HashSet<string>());
        using var index = DocumentIndex.CreateEmpty(definition, new IndexingOptions { DataDirectory = Path.Combine(_db.Directory, "numbers") });
        using (var batch = IndexingBatch.Read(_db.Documents, 0, _db.Documents.LastEtag, 10, json: true))
            Assert.True(index.Apply(batch, DateTimeOffset.UtcNow));
        index.Refresh();

        var searcher = index.Lucene.Searchers.Acquire();
        try
        {
            var terms = MultiFields.GetTerms(searcher.IndexReader, "Weight" + TypedValues.Number);
            var count = 0;
            var iterator = terms.GetEnumerator();
            while (iterator.MoveNext())
                count++;
            // Two values of 64 bits, 8 bits a term: 8 terms each, of which the top level (shift 56) is shared.
            Assert.InRange(count, 9, 16);
        }
        finally
        {
            index.Lucene.Searchers.Release(searcher);
        }
        Assert.Equal(["orders/1"], TestIndexes.Keys(_db.Query("dynamic/Order", "Weight:[3 TO 4]")));
        Assert.Equal(["orders/2"], TestIndexes.Keys(_db.Query("dynamic/Order", "Weight:1234567.5")));
        Assert.Equal(["orders/1", "orders/2"], TestIndexes.Keys(_db.Query("dynamic/Order", "Weight:[0 TO *]", sortBy: ["Weight@num"])));
    }
}
