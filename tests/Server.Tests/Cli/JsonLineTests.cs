using System.Text;
using RavenLite.Server.Cli;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Tests.Cli;

/// <summary>One import line read in one pass: the stored forms equal the database's own conversion, and bad lines say why.</summary>
public sealed class JsonLineTests
{
    private static TransferDocument Parse(string line)
    {
        Assert.True(JsonLine.TryParse(Encoding.UTF8.GetBytes(line), out var document, out var error), error);
        return document!;
    }

    private static string Refused(string line)
    {
        Assert.False(JsonLine.TryParse(Encoding.UTF8.GetBytes(line), out var document, out var error));
        Assert.Null(document);
        return error!;
    }

    [Fact]
    public void Data_of_every_JSON_type_is_stored_as_the_database_stores_the_same_JSON()
    {
        const string data = """{"s":"text \u00e9\ud83d\ude00 \"q\"","i":-42,"big":12345678901234,"d":1.5e-7,"t":true,"f":false,"n":null,"a":[1,"two",[3],{"x":{}}],"o":{"nested":{"deep":[]}}}""";
        var document = Parse($$"""{"key":"carts/1","metadata":{"Raven-Entity-Name":"Cart","X-Custom":[1]},"data":{{data}}}""");

        Assert.Equal("carts/1", document.Key);
        Assert.Equal(DocumentContent.FromJson(data).Bson.ToArray(), document.Content!.Value.Data.Bson.ToArray());
        Assert.Equal(DocumentContent.FromJson("""{"Raven-Entity-Name":"Cart","X-Custom":[1]}""").Bson.ToArray(),
            document.Content.Value.Metadata!.Bson.ToArray());
        Assert.Equal(data, Encoding.UTF8.GetString(document.DataJson.Span));
    }

    [Fact]
    public void Reserved_metadata_names_are_left_out_of_the_stored_metadata_but_kept_in_the_raw_line()
    {
        var document = Parse("""{"data":{},"metadata":{"@id":"x","Last-Modified":"2020","Raven-Entity-Name":"Cart","@etag":1},"key":"k","other":[1,{"y":2}]}""");

        Assert.Equal(DocumentContent.FromJson("""{"Raven-Entity-Name":"Cart"}""").Bson.ToArray(), document.Content!.Value.Metadata!.Bson.ToArray());
        Assert.StartsWith("{\"@id\"", Encoding.UTF8.GetString(document.MetadataJson.Span), StringComparison.Ordinal);
    }

    [Fact]
    public void Missing_or_null_metadata_is_no_metadata()
    {
        Assert.Null(Parse("""{"key":"k","data":{"a":1}}""").Content!.Value.Metadata);
        Assert.Null(Parse("""{"key":"k","metadata":null,"data":{"a":1}}""").Content!.Value.Metadata);
    }

    [Theory]
    [InlineData("""[1]""", "a line must be a JSON object, not an array.")]
    [InlineData("""{"data":{}}""", "\"key\" must be a string.")]
    [InlineData("""{"key":7,"data":{}}""", "\"key\" must be a string.")]
    [InlineData("""{"key":"k"}""", "\"data\" must be a JSON object.")]
    [InlineData("""{"key":"k","data":[1,2]}""", "\"data\" must be a JSON object.")]
    [InlineData("""{"key":"k","data":null}""", "\"data\" must be a JSON object.")]
    [InlineData("""{"key":"k","metadata":"x","data":{}}""", "Metadata must be a JSON object, not a string.")]
    [InlineData("""{"key":"k","data":{"a":1,"a":2}}""", "has the property 'a' twice in one object")]
    [InlineData("""{"key":"k","data":{"a":1e999}}""", "out of the range a double can hold")]
    [InlineData("""{"key":"k","data":{"a":"\ud800"}}""", "not Unicode")]
    [InlineData("""{"key":"k","data":{"a":01}}""", "not valid JSON:")]
    [InlineData("""{"key":"k","data":{"a":1,}}""", "not valid JSON:")]
    [InlineData("""{"key":"k","data":{}} x""", "not valid JSON:")]
    [InlineData("""{"key":"k","data":{}""", "not valid JSON:")]
    public void A_bad_line_is_refused_saying_why(string line, string expected) =>
        Assert.Contains(expected, Refused(line), StringComparison.Ordinal);

    [Fact]
    public void Nesting_past_the_document_limit_is_refused_with_the_storage_message()
    {
        static string Nested(int levels) => string.Concat(Enumerable.Repeat("{\"a\":", levels - 1)) + "{}" + new string('}', levels - 1);

        Assert.Contains($"nested deeper than {DocumentContent.MaxDepth} levels",
            Refused($$"""{"key":"k","data":{{Nested(DocumentContent.MaxDepth + 1)}}}"""), StringComparison.Ordinal);
        Parse($$"""{"key":"k","data":{{Nested(DocumentContent.MaxDepth)}}}""");
    }
}
