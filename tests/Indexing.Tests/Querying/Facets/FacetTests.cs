using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Querying.Facets;

public sealed class FacetTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public FacetTests()
    {
        _db.Put("items/1", """{"Brand":"Acme","Price":10,"Rating":4.5,"At":"2020-01-01T00:00:00Z","Tags":["a","b","a"]}""", "Item");
        _db.Put("items/2", """{"Brand":"Acme","Price":100.50,"Rating":3,"At":"2020-06-01T00:00:00Z","Tags":["b"]}""", "Item");
        _db.Put("items/3", """{"Brand":"Zed","Price":100.5,"At":"2021-01-01T00:00:00+02:00","Tags":[]}""", "Item");
        _db.Put("items/4", """{"Brand":"Bolt","Price":500,"Rating":4.5,"Tags":["c"]}""", "Item");
        _db.Put("items/5", """{"Price":-1,"Tags":"a"}""", "Item");
    }

    public void Dispose() => _db.Dispose();

    private IReadOnlyList<FacetResult> Facets(string? query, params string[] facets) =>
        _db.Indexes.Query("dynamic/Item", new IndexQuery
        {
            Query = query,
            PageSize = 0,
            WaitForNonStaleResults = true,
            Facets = [.. facets.Select(FacetRequest.Parse)],
        }).Facets;

    private static string Show(FacetResult facet) =>
        string.Join(" ", facet.Values.Select(v => $"{v.Value}={v.Count}")) + $" | rest {facet.RemainingValues}/{facet.RemainingCount} missing {facet.Missing}";

    [Fact]
    public void Value_facets_count_matches_per_value_by_count_then_value()
    {
        var facets = Facets(null, "Brand", "Price@dec", "Rating@num");

        Assert.Equal("Acme=2 Bolt=1 Zed=1 | rest 0/0 missing 1", Show(facets[0]));
        Assert.Equal("100.5=2 -1=1 10=1 500=1 | rest 0/0 missing 0", Show(facets[1]));
        Assert.Equal("4.5=2 3=1 | rest 0/0 missing 2", Show(facets[2]));
        Assert.Equal("Brand", facets[0].Facet);
    }

    [Fact]
    public void A_facet_counts_only_the_matches_of_the_query()
    {
        var facets = Facets("Price@dec:[0 TO 200]", "Brand");

        Assert.Equal("Acme=2 Zed=1 | rest 0/0 missing 0", Show(facets[0]));
    }

    [Fact]
    public void Top_keeps_the_first_values_and_counts_the_rest()
    {
        var byCount = Facets(null, "Price@dec(top=1)")[0];
        var byValue = Facets(null, "Brand(top=2,order=value)")[0];

        Assert.Equal("100.5=2 | rest 3/3 missing 0", Show(byCount));
        Assert.Equal("Acme=2 Bolt=1 | rest 1/1 missing 1", Show(byValue));
    }

    [Fact]
    public void An_array_counts_each_document_once_per_distinct_value()
    {
        var tags = Facets(null, "Tags", "Tags@count")[0];
        var counts = Facets(null, "Tags@count")[0];

        Assert.Equal("a=2 b=2 c=1 | rest 0/0 missing 1", Show(tags)); // items/1 holds "a" twice; items/5's "a" is not an array
        Assert.Equal("1=2 0=1 3=1 | rest 0/0 missing 1", Show(counts));
    }

    [Fact]
    public void Range_facets_count_per_range_with_inclusive_and_exclusive_bounds()
    {
        var price = Facets(null, "Price@dec([* TO 10},[10 TO 100.5],{100.5 TO *],[10 TO 10])")[0];
        var at = Facets(null, "At@time([* TO \"2020-06-01T00:00:00Z\"},[\"2020-06-01T00:00:00Z\" TO *])")[0];
        var rating = Facets(null, "Rating@num({3 TO 4.5],[* TO 3])")[0];

        Assert.Equal("[* TO 10}=1 [10 TO 100.5]=3 {100.5 TO *]=1 [10 TO 10]=1 | rest 0/0 missing 0", Show(price));
        // items/3 is 2020-12-31T22:00Z: an instant, whatever the offset it was written with.
        Assert.Equal("[* TO 2020-06-01T00:00:00Z}=1 [2020-06-01T00:00:00Z TO *]=2 | rest 0/0 missing 2", Show(at));
        Assert.Equal("{3 TO 4.5]=2 [* TO 3]=1 | rest 0/0 missing 2", Show(rating));
    }

    [Fact]
    public void A_many_valued_document_counts_once_per_range_any_value_falls_in()
    {
        _db.Put("items/6", """{"Brand":"Multi","Sizes":[1,2,3,50]}""", "Item");

        var sizes = Facets("Brand:Multi", "Sizes@dec([0 TO 10},[10 TO *],[100 TO *])", "Sizes@num", "Sizes@dec(top=2,order=value)");

        Assert.Equal("[0 TO 10}=1 [10 TO *]=1 [100 TO *]=0 | rest 0/0 missing 0", Show(sizes[0]));
        Assert.Equal("1=1 2=1 3=1 50=1 | rest 0/0 missing 0", Show(sizes[1]));
        Assert.Equal("1=1 2=1 | rest 2/2 missing 0", Show(sizes[2]));
    }

    [Fact]
    public void Instants_come_back_as_iso_8601_utc()
    {
        var at = Facets("Brand:Zed", "At@time")[0];

        Assert.Equal("2020-12-31T22:00:00.0000000Z=1 | rest 0/0 missing 0", Show(at));
    }

    [Theory]
    [InlineData("Brand@ci", "kind '@ci' has no values to count")]
    [InlineData("Brand([a TO b])", "ranges need a numeric or instant kind")]
    [InlineData("Price@dec([abc TO *])", "range bound 'abc'")]
    [InlineData("At@time([yesterday TO *])", "range bound 'yesterday'")]
    public void A_facet_the_index_cannot_count_is_an_argument_error_naming_the_field(string facet, string message)
    {
        var error = Assert.Throws<ArgumentException>(() => Facets(null, facet));

        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.Contains(FacetRequest.Parse(facet).Field, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_field_of_a_static_index_without_typed_values_is_refused()
    {
        _db.Indexes.PutIndex(new IndexDefinition
        {
            Name = "Items/ByBrand",
            EntityName = "Item",
            Fields = [new IndexFieldDefinition { Name = "Brand", Path = "Brand", Sort = FieldSort.String }],
        });

        var exact = Assert.Throws<ArgumentException>(() => _db.Indexes.Query("Items/ByBrand", new IndexQuery { Facets = [new FacetRequest { Field = "Brand" }] }));
        var unknown = Assert.Throws<ArgumentException>(() => _db.Indexes.Query("Items/ByBrand", new IndexQuery { Facets = [new FacetRequest { Field = "Nope@dec" }] }));

        Assert.Contains("index 'Items/ByBrand' has no typed field 'Brand'", exact.Message, StringComparison.Ordinal);
        Assert.Contains("Facet 'Nope@dec': index 'Items/ByBrand' has no typed field 'Nope'", unknown.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_static_index_with_typed_fields_answers_facets()
    {
        _db.Indexes.PutIndex(new IndexDefinition
        {
            Name = "Items/Typed",
            EntityName = "Item",
            Fields = [new IndexFieldDefinition { Name = "Maker", Path = "Brand", Analysis = FieldAnalysis.Typed }],
        });

        var result = _db.Indexes.Query("Items/Typed", new IndexQuery { WaitForNonStaleResults = true, Facets = [new FacetRequest { Field = "Maker", Top = 1 }] });

        Assert.Equal("Acme=2 | rest 2/2 missing 1", Show(result.Facets[0]));
    }
}
