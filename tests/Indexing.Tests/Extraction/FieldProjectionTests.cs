using System.Text;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Tests.Extraction;

public sealed class FieldProjectionTests
{
    private const string Cart = """{"Customer":{"Name":"Oren","Address":{"City":"Hadera"}},"Total":12.5,"Tags":["a","b"],"Lines":[{"ProductId":"p/1","Qty":2},{"Qty":1},{"ProductId":null},{"ProductId":{"Sku":"x"}}],"Matrix":[[1,2],[3]],"Text":"q\"u\u00e9"}""";

    private static string Project(string json, params string[] paths) =>
        Encoding.UTF8.GetString(FieldProjection.Parse(paths).Project(Encoding.UTF8.GetBytes(json)));

    [Fact]
    public void A_path_without_brackets_copies_the_value_it_reaches_whole()
    {
        Assert.Equal("""{"Total":12.5,"Customer":{"Name":"Oren","Address":{"City":"Hadera"}},"Customer.Address.City":"Hadera"}""",
            Project(Cart, "Total", "Customer", "Customer.Address.City"));
        Assert.Equal("""{"Tags":["a","b"],"Text":"q\"u\u00e9"}""", Project(Cart, "Tags", "Text"));
    }

    [Fact]
    public void A_missing_field_is_null_and_an_array_path_reaching_nothing_is_an_empty_array()
    {
        Assert.Equal("""{"Nope":null,"Customer.Nope":null,"Total.Nope":null,"Nope[].Id":[]}""",
            Project(Cart, "Nope", "Customer.Nope", "Total.Nope", "Nope[].Id"));
    }

    [Fact]
    public void A_path_with_brackets_gives_every_value_it_reaches_in_document_order()
    {
        Assert.Equal("""{"Lines[].ProductId":["p/1",null,{"Sku":"x"}],"Tags[]":["a","b"],"Matrix[][]":[1,2,3],"Matrix[]":[[1,2],[3]]}""",
            Project(Cart, "Lines[].ProductId", "Tags[]", "Matrix[][]", "Matrix[]"));
    }

    [Fact]
    public void A_path_without_brackets_stops_reading_once_it_has_its_value()
    {
        // What follows the value is never read: here it is cut off, and reading it would throw.
        Assert.Equal("{\"Total\":1}", Project("{\"Total\":1,\"Lines\":[{\"ProductId\":", "Total"));
    }

    [Fact]
    public void A_path_given_twice_is_one_member()
    {
        var projection = FieldProjection.Parse(["Total", "Total"]);
        Assert.Equal(["Total"], projection.Paths);
        Assert.Equal("""{"Total":12.5}""", Encoding.UTF8.GetString(projection.Project(Encoding.UTF8.GetBytes(Cart))));
    }

    [Theory]
    [InlineData("Lines[0].ProductId")]
    [InlineData("Customer..Name")]
    [InlineData("")]
    [InlineData("Lines[")]
    public void A_bad_path_throws_ArgumentException_naming_it(string path)
    {
        var error = Assert.Throws<ArgumentException>(() => FieldProjection.Parse(["Total", path]));
        Assert.Contains(path, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void No_path_is_refused()
    {
        Assert.Throws<ArgumentException>(() => FieldProjection.Parse([]));
    }
}
