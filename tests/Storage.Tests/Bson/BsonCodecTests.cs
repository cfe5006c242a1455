using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Tests.Bson;

/// <summary>The entity name every put reads from its metadata, found by walking the top level's element headers.</summary>
public sealed class BsonCodecTests
{
    private static string? Read(string json, string name) =>
        BsonCodec.ReadTopLevelString(DocumentContent.FromJson(json).Bson.Span, name);

    [Theory]
    [InlineData("""{"Raven-Entity-Name": "Item"}""", "Item")]
    [InlineData("""{"a": 1.5, "b": {"Raven-Entity-Name": "Nested"}, "c": [1, "x", null], "d": true, "Raven-Entity-Name": "Ünïcødé"}""", "Ünïcødé")]
    [InlineData("""{"a": "x", "b": 12345678901234, "c": null, "Raven-Entity-Name": ""}""", "")]
    public void ReadTopLevelString_finds_the_member_after_any_kind_of_value(string json, string expected) =>
        Assert.Equal(expected, Read(json, "Raven-Entity-Name"));

    [Theory]
    [InlineData("""{}""")]
    [InlineData("""{"b": {"Raven-Entity-Name": "Nested"}}""")]
    [InlineData("""{"Raven-Entity-Name": 42}""")]
    [InlineData("""{"Raven-Entity-Name": null}""")]
    [InlineData("""{"Raven-Entity-Name": {"Name": "Item"}}""")]
    [InlineData("""{"Raven-Entity-Name-Suffix": "Item"}""")]
    public void ReadTopLevelString_is_null_when_the_top_level_has_no_such_string(string json) =>
        Assert.Null(Read(json, "Raven-Entity-Name"));
}
