using System.Globalization;
using System.Numerics;
using Newtonsoft.Json.Linq;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.BsonBytes;

namespace RavenLite.Storage.Tests.Bson;

/// <summary>The read path's BSON to JSON step gives the bytes Newtonsoft's BsonDataReader gave, for every document.</summary>
public sealed class BsonJsonTranscoderTests
{
    public static TheoryData<string, byte[]> EveryType => new()
    {
        { "double 2.0", One(BsonType.Double, F64(2.0)) },
        { "double 0.1", One(BsonType.Double, F64(0.1)) },
        { "double -0.0", One(BsonType.Double, F64(-0.0)) },
        { "double 1e300", One(BsonType.Double, F64(1e300)) },
        { "double epsilon", One(BsonType.Double, F64(double.Epsilon)) },
        { "double NaN", One(BsonType.Double, F64(double.NaN)) },
        { "double +inf", One(BsonType.Double, F64(double.PositiveInfinity)) },
        { "double -inf", One(BsonType.Double, F64(double.NegativeInfinity)) },
        { "string", One(BsonType.String, Str("text")) },
        { "empty string", One(BsonType.String, Str("")) },
        { "document", One(BsonType.Document, Doc(El(BsonType.Int32, "a", I32(1)), El(BsonType.Null, "b", []))) },
        { "empty document", One(BsonType.Document, Doc()) },
        { "array", One(BsonType.Array, Arr((BsonType.Int32, I32(1)), (BsonType.String, Str("two")), (BsonType.Array, Arr()))) },
        { "empty array", One(BsonType.Array, Arr()) },
        { "array with any names", One(BsonType.Array, Doc(El(BsonType.Int32, "x", I32(1)), El(BsonType.Int32, "x", I32(2)))) },
        { "binary", One(BsonType.Binary, Bin(0, [1, 2, 3])) },
        { "empty binary", One(BsonType.Binary, Bin(0, [])) },
        { "binary function", One(BsonType.Binary, Bin(1, [9])) },
        { "binary old", One(BsonType.Binary, Bin(2, [4, 5, 6])) },
        { "binary old uuid", One(BsonType.Binary, Bin(3, [.. Enumerable.Range(0, 16).Select(i => (byte)i)])) },
        { "binary uuid", One(BsonType.Binary, Bin(4, new byte[16])) },
        { "binary uuid of 15 bytes", One(BsonType.Binary, Bin(4, new byte[15])) },
        { "binary md5", One(BsonType.Binary, Bin(5, new byte[16])) },
        { "binary user defined", One(BsonType.Binary, Bin(0x80, [0xFF])) },
        { "undefined", One(BsonType.Undefined, []) },
        { "ObjectId", One(BsonType.ObjectId, [.. Enumerable.Range(1, 12).Select(i => (byte)i)]) },
        { "false", One(BsonType.Boolean, [0]) },
        { "true", One(BsonType.Boolean, [1]) },
        { "boolean 2", One(BsonType.Boolean, [2]) },
        { "date", One(BsonType.DateTime, I64(1_234_567_890_123)) },
        { "date year 1", One(BsonType.DateTime, I64(-62135596800000)) },
        { "date year 9999", One(BsonType.DateTime, I64(253402300799999)) },
        { "date before year 1", One(BsonType.DateTime, I64(-62135596800001)) },
        { "date after year 9999", One(BsonType.DateTime, I64(253402300800000)) },
        { "date whose ticks overflow", One(BsonType.DateTime, I64(long.MaxValue / 10000 * 2)) },
        { "null", One(BsonType.Null, []) },
        { "regex", One(BsonType.Regex, [.. CStr("^a\"b\\d+$"), .. CStr("gi")]) },
        { "DBPointer", One(BsonType.DbPointer, [.. Str("things"), .. new byte[12]]) },
        { "code", One(BsonType.Code, Str("function() { return \"x\"; }")) },
        { "symbol", One(BsonType.Symbol, Str("sym")) },
        { "code with scope", One(BsonType.CodeWithScope, [.. I32(0), .. Str("f()"), .. Doc(El(BsonType.Int32, "x", I32(1)))]) },
        { "int32 min", One(BsonType.Int32, I32(int.MinValue)) },
        { "int32 max", One(BsonType.Int32, I32(int.MaxValue)) },
        { "timestamp", One(BsonType.Timestamp, I64(-5)) },
        { "int64 min", One(BsonType.Int64, I64(long.MinValue)) },
        { "int64 max", One(BsonType.Int64, I64(long.MaxValue)) },
        { "min key", One(BsonType.MinKey, []) },
        { "max key", One(BsonType.MaxKey, []) },
        { "empty root", Doc() },
    };

    [Theory]
    [MemberData(nameof(EveryType))]
    public void Transcoder_matches_Newtonsoft_for_every_bson_type(string what, byte[] bson) =>
        Transcoding.AssertSameAsOld(bson, what);

    [Theory]
    [InlineData(BsonType.Double, "0000000000000040", "2")]
    [InlineData(BsonType.Double, "000000000000F8FF", "\"NaN\"")]
    [InlineData(BsonType.Binary, "0300000000010203", "\"AQID\"")]
    [InlineData(BsonType.Binary, "0700000002030000000A0B0C", "\"CgsM\"")]
    [InlineData(BsonType.ObjectId, "0102030405060708090A0B0C", "\"AQIDBAUGBwgJCgsM\"")]
    [InlineData(BsonType.DateTime, "CB04FB711F010000", "\"2009-02-13T23:31:30.1230000Z\"")]
    [InlineData(BsonType.Regex, "61006900", "\"/a/i\"")]
    [InlineData(BsonType.Undefined, "", "null")]
    [InlineData(BsonType.Symbol, "020000007800", "\"x\"")]
    [InlineData(BsonType.Timestamp, "0100000002000000", "8589934593")]
    public void Each_type_reads_as_it_always_has(byte type, string valueHex, string json)
    {
        var read = Transcoding.New(One(type, Convert.FromHexString(valueHex)));
        Assert.Equal($$"""{"v":{{json}}}""", read.Text);
    }

    [Fact]
    public void Transcoder_matches_Newtonsoft_for_the_seed_cart()
    {
        Transcoding.AssertSameAsOld(SeedCart.Metadata.ToArray());
        Transcoding.AssertSameAsOld(SeedCart.Data.ToArray());
        Assert.Equal("""{"Raven-Entity-Name":"Item"}""", Transcoding.New(SeedCart.Metadata.ToArray()).Text);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    [InlineData(7)]
    [InlineData(8)]
    public void Transcoder_matches_Newtonsoft_for_generated_documents(int seed)
    {
        var random = new RandomBson(seed);
        for (var i = 0; i < 300; i++)
            Transcoding.AssertSameAsOld(random.Document(), $"(seed {seed}, document {i})");
    }

    [Fact]
    public void Transcoder_matches_Newtonsoft_for_what_the_write_path_stores()
    {
        object?[] values =
        [
            // decimal.MaxValue and integers past 64 bits are decimal128 now, which the old reader cannot read (ExactNumberTests).
            null, true, "text", 0, -1, long.MinValue, 42UL, 0.5f, 2.0, 1.5m, new byte[] { 1, 2, 3 },
            new DateTime(2011, 1, 2, 3, 4, 5, DateTimeKind.Utc), new DateTime(2011, 1, 2, 3, 4, 5, DateTimeKind.Local),
            new DateTimeOffset(2011, 1, 2, 3, 4, 5, TimeSpan.FromHours(2)), TimeSpan.FromMinutes(90),
            new Uri("http://example.com/a?b=c"), Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e"),
        ];
        foreach (var value in values)
        {
            var content = DocumentContent.FromJObject(new JObject { ["v"] = new JValue(value), ["n"] = new JObject { ["a"] = new JArray(new JValue(value), new JValue(value)) } });
            Transcoding.AssertSameAsOld(content.Bson.ToArray(), $"for {value?.GetType().Name ?? "null"}");
        }
        var random = new RandomBson(11);
        var written = 0;
        for (var i = 0; i < 200; i++)
        {
            // The old path's JSON for a generated document, written back through FromJson as a client would.
            // A long name of bytes that are not UTF-8 can derail the old reader, into an error or cut-off JSON:
            // nothing a client would write back.
            var old = Transcoding.Old(random.Document());
            if (old.Json is not { } json || !IsJson(json))
                continue;
            DocumentContent content;
            try
            {
                content = DocumentContent.FromJson(json.AsSpan());
            }
            catch (ArgumentException ex) when (ex.Message.Contains("twice in one object", StringComparison.Ordinal))
            {
                continue; // generated names may repeat; JSON text with a repeated name is refused
            }
            written++;
            Transcoding.AssertSameAsOld(content.Bson.ToArray(), $"(document {i})");
        }
        Assert.InRange(written, 150, 200);
    }

    private static bool IsJson(byte[] json)
    {
        try
        {
            using var parsed = System.Text.Json.JsonDocument.Parse(json);
            return true;
        }
        catch (System.Text.Json.JsonException)
        {
            return false;
        }
    }

    [Theory]
    [InlineData(129)]  // as deep as a write allows
    [InlineData(200)]  // deeper than the transcoder goes before handing over
    [InlineData(1000)] // the old reader's limit
    [InlineData(1001)] // past it: refused
    public void Deep_nesting_matches_Newtonsoft(int levels)
    {
        var objects = Doc(El(BsonType.Int32, "leaf", I32(1)));
        var arrays = Arr((BsonType.Int32, I32(1)));
        for (var level = 1; level < levels; level++)
        {
            objects = Doc(El(BsonType.Document, "d", objects));
            arrays = Arr((BsonType.Array, arrays));
        }
        Transcoding.AssertSameAsOld(objects);
        Transcoding.AssertSameAsOld(arrays);
    }
}
