namespace RavenLite.Indexing.Tests.Querying.Facets;

public sealed class FacetRequestTests
{
    [Theory]
    [InlineData("Brand")]
    [InlineData("Brand(top=5)")]
    [InlineData("Brand(top=5,order=value)")]
    [InlineData("Brand(order=value)")]
    [InlineData("Price@dec([* TO 100},[100 TO 500},{500 TO *])")]
    [InlineData("At@time([\"2020-01-01 00:00\" TO *])")]
    public void The_http_form_reads_back_to_itself(string text) =>
        Assert.Equal(text, FacetRequest.Parse(text).ToString());

    [Fact]
    public void Ranges_read_bounds_and_brackets()
    {
        var request = FacetRequest.Parse(" Price@dec ( [0 TO 100} , {\"1,5\" TO *] ) ");

        Assert.Equal("Price@dec", request.Field);
        Assert.Equal(2, request.Ranges!.Count);
        Assert.Equal(("0", true, "100", false), (request.Ranges[0].From, request.Ranges[0].FromInclusive, request.Ranges[0].To, request.Ranges[0].ToInclusive));
        Assert.Equal(("1,5", false, (string?)null, true), (request.Ranges[1].From, request.Ranges[1].FromInclusive, request.Ranges[1].To, request.Ranges[1].ToInclusive));
        Assert.Equal("[0 TO 100}", FacetRange.Parse("[0 TO 100}").ToString());
    }

    [Theory]
    [InlineData("(top=1)", "field name")]
    [InlineData("Brand(top=1", "closed")]
    [InlineData("Brand(top=x)", "not an option")]
    [InlineData("Brand(limit=3)", "not an option")]
    [InlineData("Brand(top=-1)", "not an option")]
    [InlineData("Price@dec([0 TO 1)", "not closed")]
    [InlineData("Price@dec([0 1])", "expected 'TO'")]
    [InlineData("Price@dec([0 TO 1],top=3)", "no top or order")]
    [InlineData("Price@dec([\"0 TO 1])", "not closed")]
    public void A_malformed_facet_is_an_argument_error(string text, string message)
    {
        var error = Assert.Throws<ArgumentException>(() => FacetRequest.Parse(text));

        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void More_than_64_ranges_are_refused()
    {
        var request = new FacetRequest { Field = "Price@dec", Ranges = [.. Enumerable.Range(0, 65).Select(i => new FacetRange { From = i.ToString(System.Globalization.CultureInfo.InvariantCulture) })] };

        Assert.Throws<ArgumentException>(request.Validate);
    }
}
