using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.BsonBytes;

namespace RavenLite.Storage.Tests.Documents;

/// <summary>
/// Issue 20 item 5: BSON given as is must be valid BSON. A boolean byte other than 0x00 or 0x01, and a name or
/// text that is not UTF-8, are refused with an error naming the element, and nothing is written.
/// </summary>
public sealed class StrictBsonInputTests : IDisposable
{
    private static readonly byte[] BadUtf8 = [(byte)'a', 0xC3, 0x28, (byte)'z']; // a two-byte lead followed by ASCII

    private readonly TempDirectory _dir = new();
    private readonly DocumentStore _store;

    public StrictBsonInputTests()
    {
        _store = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        _store.Put("existing", DocumentContent.FromJson("""{"keep":true}"""));
    }

    public void Dispose()
    {
        _store.Dispose();
        _dir.Dispose();
    }

    [Theory]
    [InlineData(0x02)]
    [InlineData(0x80)]
    [InlineData(0xFF)]
    public void A_boolean_byte_other_than_0_or_1_is_refused_naming_the_element(byte value)
    {
        var bson = Doc(El(BsonType.Document, "order", Doc(El(BsonType.Array, "flags", Arr((BsonType.Boolean, [1]), (BsonType.Boolean, [value]))))));
        var message = AssertRefused(bson);
        Assert.Contains("element 'order.flags.1'", message, StringComparison.Ordinal);
        Assert.Contains($"boolean whose byte is 0x{value:X2}", message, StringComparison.Ordinal);
    }

    [Fact]
    public void Booleans_0_and_1_are_accepted_and_read_back()
    {
        var content = DocumentContent.FromBson(Doc(El(BsonType.Boolean, "no", [0]), El(BsonType.Boolean, "yes", [1])));
        Assert.Equal("""{"no":false,"yes":true}""", content.ToString());
    }

    public static TheoryData<string, byte[], string> BadText => new()
    {
        { "string", One(BsonType.String, Str(BadUtf8)), "a string that is not UTF-8" },
        { "JavaScript code", One(BsonType.Code, Str(BadUtf8)), "JavaScript code that is not UTF-8" },
        { "symbol", One(BsonType.Symbol, Str(BadUtf8)), "a symbol that is not UTF-8" },
        { "regex pattern", One(BsonType.Regex, [.. BadUtf8, 0, (byte)'i', 0]), "a regular expression that is not UTF-8" },
        { "regex options", One(BsonType.Regex, [(byte)'x', 0, .. BadUtf8, 0]), "a regular expression that is not UTF-8" },
        { "surrogate encoded as UTF-8", One(BsonType.String, Str([0xED, 0xA0, 0x80])), "a string that is not UTF-8" },
        { "overlong encoding", One(BsonType.String, Str([0xC0, 0xAF])), "a string that is not UTF-8" },
        { "truncated sequence", One(BsonType.String, Str([(byte)'o', (byte)'k', 0xE2, 0x82])), "a string that is not UTF-8" },
        // Code with scope is refused whatever it holds: the store has no JSON form for it.
        { "code with scope", One(BsonType.CodeWithScope, [.. I32(4 + 4 + 5 + 5), .. Str(BadUtf8), .. Doc()]), "unsupported element type 0x0F" },
    };

    [Theory]
    [MemberData(nameof(BadText))]
    public void Text_that_is_not_utf8_is_refused_naming_the_element(string what, byte[] bson, string reason)
    {
        var message = AssertRefused(bson);
        Assert.True(message.Contains($"element 'v': {reason}", StringComparison.Ordinal), $"{what}: {message}");
    }

    [Fact]
    public void A_name_that_is_not_utf8_is_refused()
    {
        var message = AssertRefused(Doc(El(BsonType.Document, "outer", Doc(El(BsonType.Int32, BadUtf8, I32(1))))));
        Assert.Contains("element 'outer.a\ufffd(z'", message, StringComparison.Ordinal);
        Assert.Contains("its name is not UTF-8", message, StringComparison.Ordinal);
    }

    [Fact]
    public void Text_of_every_utf8_width_is_accepted()
    {
        const string Text = "a é 日 😀 \u2028 \ufffd";
        var bson = Doc(El(BsonType.String, Text, Str(Text)), El(BsonType.Symbol, "s", Str(Text)), El(BsonType.Regex, "r", [.. CStr(Text), .. CStr("i")]));
        using var json = System.Text.Json.JsonDocument.Parse(DocumentContent.FromBson(bson).ToString());
        Assert.Equal(Text, json.RootElement.GetProperty(Text).GetString());
        Assert.Equal(Text, json.RootElement.GetProperty("s").GetString());
        Assert.Equal($"/{Text}/i", json.RootElement.GetProperty("r").GetString());
    }

    /// <summary>Asserts FromBson refuses <paramref name="bson"/> with an ArgumentException and the store is unchanged.</summary>
    private string AssertRefused(byte[] bson)
    {
        var ex = Assert.Throws<ArgumentException>(() => _store.Put("bad", DocumentContent.FromBson(bson)));
        Assert.StartsWith("The document is not well-formed BSON", ex.Message, StringComparison.Ordinal);
        Assert.Null(_store.Get("bad"));
        var counts = _store.GetCounts();
        Assert.Equal(1, counts.Documents);
        Assert.Equal(1, counts.LastEtag);
        return ex.Message;
    }
}
