using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Indexes;

public sealed class UserIndexTests : IDisposable
{
    private const string Carts = "Carts/ByProduct";
    private readonly TestIndexes _db = new();

    public UserIndexTests()
    {
        _db.Indexes.PutIndex(TestDefinitions.CartsByProduct);
        _db.Documents.Put("carts/666", SeedCart.Data, SeedCart.Metadata);
        _db.Put("carts/1", """{"cartId": 1, "otherStuff": "The quick brown fox jumps", "itemList": [{"productId": 7, "name": "Red Apple", "price": 1.5}, {"productId": 8, "name": "green pear", "price": 12}]}""", "Item");
        _db.Put("carts/2", """{"cartId": 2, "otherStuff": "fox brown quick", "itemList": [{"productId": 42, "name": "apple pie", "price": -3}]}""", "Item");
        _db.Put("carts/3", """{"cartId": 3, "otherStuff": "nothing here", "itemList": []}""", "Item");
        _db.Put("users/1", """{"cartId": 99, "itemList": [{"productId": 42}]}""", "User");
    }

    public void Dispose() => _db.Dispose();

    private IReadOnlyList<string> Keys(string query, IReadOnlyList<string>? sortBy = null) =>
        TestIndexes.Keys(_db.Query(Carts, query, pageSize: 1024, sortBy: sortBy));

    [Fact]
    public void Every_product_id_of_a_cart_is_indexed()
    {
        Assert.Equal(["carts/666", "carts/2"], Keys("ProductId:42"));
        Assert.Equal(["carts/1"], Keys("ProductId:8"));
        Assert.Empty(Keys("ProductId:9"));
    }

    [Fact]
    public void The_entity_name_filter_keeps_other_documents_out()
    {
        Assert.DoesNotContain("users/1", Keys("ProductId:42"));
        Assert.Equal(4, _db.Indexes.GetStatistics(Carts).DocumentCount);
    }

    [Fact]
    public void Numeric_ranges_compare_numbers_not_strings()
    {
        Assert.Equal(["carts/666", "carts/1"], Keys("Price:[1 TO 10]"));
        Assert.Equal(["carts/1"], Keys("Price:{6.66 TO 12]"));
        Assert.Equal(["carts/666", "carts/1"], Keys("Price:[6.66 TO *]"));
        Assert.Equal(["carts/2"], Keys("Price:[* TO 0}"));
        Assert.Equal(["carts/666"], Keys("Price:6.66"));
        Assert.Equal(["carts/2", "carts/3"], Keys("CartId:[2 TO 3]"));
        Assert.Equal(["carts/666", "carts/1", "carts/2"], Keys("Price:*"));
    }

    [Fact]
    public void Full_text_fields_match_words_case_insensitively()
    {
        Assert.Equal(["carts/1", "carts/2"], Keys("ItemName:APPLE"));
        Assert.Equal(["carts/666"], Keys("ItemName:Brimstone"));
        Assert.Equal(["carts/1", "carts/2"], Keys("Notes:fox"));
        Assert.Equal(["carts/1", "carts/2"], Keys("ItemName:app*"));
    }

    [Fact]
    public void Phrases_on_full_text_fields_match_words_in_order()
    {
        Assert.Equal(["carts/1"], Keys("Notes:\"quick brown fox\""));
        Assert.Equal(["carts/2"], Keys("Notes:\"fox brown\""));
        // "the" is a stop word: what is left is the one word "quick".
        Assert.Equal(["carts/1", "carts/2"], Keys("Notes:\"the quick\""));
        Assert.Equal(["carts/2"], Keys("ItemName:\"apple pie\""));
        // A phrase never spans two array items.
        Assert.Empty(Keys("ItemName:\"apple green\""));
    }

    [Fact]
    public void A_query_of_only_stop_words_matches_nothing_and_is_dropped_beside_other_clauses()
    {
        Assert.Empty(Keys("Notes:the"));
        Assert.Equal(["carts/1"], Keys("+Notes:the +ProductId:7"));
    }

    [Fact]
    public void Boolean_operators_combine_clauses()
    {
        Assert.Equal(["carts/2"], Keys("ProductId:42 AND Notes:fox"));
        Assert.Equal(["carts/666"], Keys("ProductId:42 -Notes:fox"));
        Assert.Equal(["carts/666", "carts/1", "carts/2"], Keys("ProductId:42 OR ProductId:7"));
        Assert.Equal(["carts/666", "carts/3"], Keys("NOT Notes:fox"));
        Assert.Equal(["carts/666", "carts/1", "carts/2", "carts/3"], Keys("*:*"));
        Assert.Equal(["carts/666", "carts/1"], Keys("(ProductId:42 OR ProductId:7) AND NOT Price:[* TO 0]"));
        Assert.Equal(["carts/666", "carts/2"], Keys("ProductId:(42 99)"));
    }

    [Fact]
    public void Results_sort_by_numbers_and_strings_in_both_directions()
    {
        Assert.Equal(["carts/666", "carts/3", "carts/2", "carts/1"], Keys("*:*", ["-CartId"]));
        // carts/3 has no price: a missing value sorts first.
        Assert.Equal(["carts/3", "carts/2", "carts/1", "carts/666"], Keys("*:*", ["Price"]));
        Assert.Equal(["carts/666", "carts/1", "carts/2", "carts/3"], Keys("*:*", ["-Price"]));
        Assert.Equal(["carts/1", "carts/2", "carts/666", "carts/3"], Keys("*:*", ["Notes"])); // ordinal: "The" < "fox"
    }

    [Fact]
    public void An_update_moves_the_document_to_its_new_terms()
    {
        _db.Put("carts/2", """{"cartId": 2, "itemList": [{"productId": 8}]}""", "Item");

        Assert.Equal(["carts/666"], Keys("ProductId:42"));
        Assert.Equal(["carts/1", "carts/2"], Keys("ProductId:8"));
        Assert.Empty(Keys("Notes:fox AND CartId:2"));
    }

    [Fact]
    public void A_document_that_leaves_the_entity_name_leaves_the_index()
    {
        _db.Put("carts/1", """{"cartId": 1, "itemList": [{"productId": 7}]}""", "Archived");

        Assert.Empty(Keys("ProductId:7"));
        Assert.Equal(3, _db.Indexes.GetStatistics(Carts).DocumentCount);
    }

    [Fact]
    public void Exact_fields_are_case_sensitive_and_match_the_whole_value()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple("Names"));
        _db.Put("people/1", """{"name": "Oren Eini"}""");
        _db.Put("people/2", """{"name": "oren"}""");

        Assert.Equal(["people/1"], TestIndexes.Keys(_db.Query("Names", "Value:\"Oren Eini\"")));
        Assert.Equal(["people/2"], TestIndexes.Keys(_db.Query("Names", "Value:oren")));
        Assert.Empty(TestIndexes.Keys(_db.Query("Names", "Value:Oren")));
        Assert.Equal(["people/1"], TestIndexes.Keys(_db.Query("Names", "Value:Oren*")));
        Assert.Equal(["people/1", "people/2"], TestIndexes.Keys(_db.Query("Names", "Value:[A TO z]")));
    }

    [Fact]
    public void Metadata_fields_and_the_built_in_last_modified()
    {
        _db.Indexes.PutIndex(RavenLite.Indexing.Definitions.IndexDefinition.FromJson("""
            {"Name": "ByOwner", "Fields": [{"Name": "Owner", "Path": "owner", "Source": "Metadata"},
                                           {"Name": "Modified", "Path": "Last-Modified", "Source": "Metadata", "Sort": "String"}]}
            """));
        _db.Documents.Put("x/1", DocumentContent.FromJson("{}"), DocumentContent.FromJson("""{"owner": "ayende"}"""));

        var result = _db.Query("ByOwner", "Owner:ayende");
        Assert.Equal(["x/1"], TestIndexes.Keys(result));
        var year = result.Results[0].LastModified.Year;
        Assert.Equal(["x/1"], TestIndexes.Keys(_db.Query("ByOwner", $"Owner:ayende AND Modified:[{year} TO *]")));
        var newestFirst = _db.Query(TestDefinitions.ByEntityName, $"Tag:Item AND LastModified:[{year} TO *]", sortBy: ["-LastModified"]);
        Assert.Equal(["carts/3", "carts/2", "carts/1", "carts/666"], TestIndexes.Keys(newestFirst));
    }
}
