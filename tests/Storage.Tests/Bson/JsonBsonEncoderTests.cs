using System.Text;
using System.Text.Json;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Tests.Bson;

/// <summary>
/// The one-pass JSON -> BSON encoder writes exactly the bytes of the checked Newtonsoft writer for everything that
/// writer accepts, and gives up (leaving the refusal and its message to that writer) on everything it refuses.
/// </summary>
public sealed class JsonBsonEncoderTests
{
    private static readonly string ManyNames =
        "{" + string.Join(",", Enumerable.Range(0, 40).Select(i => $"\"p{i}\":{i}")) + "}";

    public static TheoryData<string> Accepted => new()
    {
        """{}""",
        """{"s":"text","i":42,"neg":-7,"big":9223372036854775807,"d":6.66,"e":1e300,"t":true,"f":false,"n":null}""",
        """{"o":{"a":{"b":{"c":[1,[2,[3,{}]],[]]}}},"empty":"","arr":[{"x":1},{"x":2}]}""",
        """{"escaped \"name\"":"tab\there \u00e9 \ud83d\ude00 \/","ü":"ünïcödé","nul in value":"a\u0000b"}""",
        """{"n":9223372036854775808,"m":123456789012345678901234567890,"z":-0,"tiny":5e-324,"exact":0.1234567890123456789012345678}""",
        "{\"a\":[" + string.Join(",", Enumerable.Range(0, 120)) + "]}",
        ManyNames,
        """{"p0":{"p0":1},"p1":{"p0":2}}""",
    };

    [Theory]
    [MemberData(nameof(Accepted))]
    public void Encodes_the_same_bytes_as_the_checked_writer(string json)
    {
        var utf8 = Encoding.UTF8.GetBytes(json);
        Assert.Equal(Checked(utf8, leaveOut: null), Fast(utf8, leaveOut: null));
    }

    [Fact]
    public void Encodes_the_seed_cart_as_it_is_stored()
    {
        var utf8 = Encoding.UTF8.GetBytes(DocumentContent.FromBson(Infrastructure.SeedCart.Data).ToString());
        Assert.Equal(Checked(utf8, leaveOut: null), Fast(utf8, leaveOut: null));
        Assert.Equal(Infrastructure.SeedCart.Data.ToArray(), Fast(utf8, leaveOut: null));
    }

    [Fact]
    public void Leaves_out_the_top_level_names_asked_like_the_checked_writer()
    {
        var utf8 = """{"@id":"x","Raven-Entity-Name":"Item","inner":{"@id":"kept"}}"""u8.ToArray();
        static bool leaveOut(string name) => name.StartsWith('@');
        var fast = Fast(utf8, leaveOut);
        Assert.Equal(Checked(utf8, leaveOut), fast);
        Assert.DoesNotContain("\"@id\":\"x\"", DocumentContent.FromBson(fast!).ToString(), StringComparison.Ordinal);
    }

    public static TheoryData<string> LeftToTheCheckedWriter => new()
    {
        """{"a":1,"a":2}""",
        ManyNames[..^1] + ",\"p39\":0}",
        """{"a\u0000b":1}""",
        """{"a":"\ud800"}""",
        """{"a":1e400}""",
        """{"a":1,}""",
        string.Concat(Enumerable.Repeat("{\"a\":", 129)) + "1" + new string('}', 129),
    };

    [Theory]
    [MemberData(nameof(LeftToTheCheckedWriter))]
    public void Gives_up_on_what_the_checked_writer_refuses(string json)
    {
        var utf8 = Encoding.UTF8.GetBytes(json);
        Assert.Null(Fast(utf8, leaveOut: null));
        Assert.Throws<ArgumentException>(() => DocumentContent.FromJson(utf8));
    }

    [Fact]
    public void Invalid_utf8_is_left_to_the_checked_writer()
    {
        byte[] utf8 = [.. """{"a":" """u8, 0xC3, 0x28, .. "\"}"u8];
        Assert.Null(Fast(utf8, leaveOut: null));
        var ex = Assert.Throws<ArgumentException>(() => DocumentContent.FromJson(utf8));
        Assert.Contains("not Unicode", ex.Message, StringComparison.Ordinal);
    }

    private static byte[]? Fast(byte[] utf8, Func<string, bool>? leaveOut)
    {
        var reader = new Utf8JsonReader(utf8, new JsonReaderOptions { MaxDepth = 256 });
        reader.Read();
        var bson = JsonBsonEncoder.TryEncode(ref reader, leaveOut);
        if (bson is not null)
            Assert.Equal(JsonTokenType.EndObject, reader.TokenType);
        return bson;
    }

    private static byte[] Checked(byte[] utf8, Func<string, bool>? leaveOut)
    {
        var reader = new Utf8JsonReader(utf8, new JsonReaderOptions { MaxDepth = 256 });
        reader.Read();
        return StrictJson.ToCheckedBson(ref reader, utf8, "The document", leaveOut);
    }
}
