using RavenLite.Indexing.Persistence;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Persistence;

/// <summary>
/// An index opened empty adds documents whose keys it has never added without a delete term; every later version,
/// deletion and replay must still leave one Lucene document per live key.
/// </summary>
public sealed class AddedKeysTests : IDisposable
{
    private readonly TestIndexes _db = new(batchSize: 16);

    public void Dispose() => _db.Dispose();

    [Theory]
    [InlineData(10_000, 0.01)]
    [InlineData(1_000_000, 0.04)]
    public void Every_added_key_may_be_contained_and_few_others_are(int added, double falsePositiveRate)
    {
        var keys = new AddedKeys();
        for (var i = 0; i < added; i++)
            keys.Add(AddedKeys.Locate($"carts/{i}"));

        Assert.All(Enumerable.Range(0, added), i => Assert.True(keys.MayContain(AddedKeys.Locate($"carts/{i}"))));
        var falsePositives = Enumerable.Range(added, 100_000).Count(i => keys.MayContain(AddedKeys.Locate($"carts/{i}")));
        Assert.True(falsePositives < 100_000 * falsePositiveRate, $"{falsePositives} of 100,000 keys never added were reported as maybe added.");
    }

    [Fact]
    public void New_versions_deletions_and_puts_again_leave_one_document_per_live_key()
    {
        _db.Indexes.PutIndex(TestDefinitions.CartsByProduct);
        for (var i = 0; i < 100; i++)
            _db.Put($"carts/{i}", Cart(i), "Item");
        for (var i = 0; i < 100; i += 2)
            _db.Put($"Carts/{i}", Cart(i), "Item"); // a new version, the key in other casing
        for (var i = 0; i < 100; i += 10)
            _db.Documents.Delete($"carts/{i}");
        for (var i = 0; i < 100; i += 20)
            _db.Put($"carts/{i}", Cart(i), "Item"); // put again after its deletion
        for (var i = 1; i < 100; i += 25)
            _db.Put($"carts/{i}", Cart(i), "Order"); // leaves Carts/ByProduct, stays in the built-in index

        AssertOneDocumentPerLiveKey();
        _db.Crash(); // nothing was committed: the replay starts from the empty index again
        _db.Open();
        AssertOneDocumentPerLiveKey();
    }

    private static string Cart(int i) => $$"""{"cartId": {{i}}, "itemList": [{"productId": 7}]}""";

    private void AssertOneDocumentPerLiveKey()
    {
        var all = _db.Query(TestDefinitions.ByEntityName, "Tag:Item OR Tag:Order", pageSize: 1000);
        var carts = _db.Query("Carts/ByProduct", "ProductId:7", pageSize: 1000);

        Assert.Equal(95, all.TotalResults);
        Assert.Equal(95, all.Results.Select(d => d.Key).Distinct(StringComparer.OrdinalIgnoreCase).Count());
        Assert.Equal(91, carts.TotalResults);
        Assert.Equal(91, carts.Results.Select(d => d.Key).Distinct(StringComparer.OrdinalIgnoreCase).Count());
        Assert.All(carts.Results, d => Assert.Equal("Item", d.EntityName));
    }
}
