using System.Globalization;
using System.Numerics;
using System.Text;
using JsonDocument = System.Text.Json.JsonDocument;
using Utf8JsonReader = System.Text.Json.Utf8JsonReader;
using System.Text.RegularExpressions;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.BsonBytes;

namespace RavenLite.Storage.Tests.Issues;

/// <summary>
/// Issue 28 (found by the LINQ differential test): numbers that JSON holds exactly but a BSON double does not were
/// silently changed on write: <c>decimal.MaxValue</c> read back as 7.922816251426434E+28 (which no longer even
/// deserialized as a decimal), <c>ulong.MaxValue</c> as 1.8446744073709552E+19, 28-digit decimals lost digits. Such
/// numbers are now stored as BSON decimal128 and read back as the same number by every read path; int64 and doubles
/// that write back as the same number are stored as before.
/// </summary>
public sealed partial class ExactNumberTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    public static TheoryData<string> Extremes => new()
    {
        "79228162514264337593543950335", // decimal.MaxValue
        "-79228162514264337593543950335", // decimal.MinValue
        "0.0000000000000000000000000001",
        "-0.0000000000000000000000000001",
        "1234567890.123456789012345678", // 28 digits
        "0.1234567890123456789012345678",
        "9.999999999999999999999999999",
        "7922816251426433759354395033.5",
        "18446744073709551615", // ulong.MaxValue
        "9223372036854775808", // long.MaxValue + 1
        "-9223372036854775809",
        "-9223372036854775808", // long.MinValue
        "9007199254740993", // 2^53 + 1
        "9007199254740993.0",
        "9999999999999999999999999999999999", // the largest 34-digit integer
        "1.7976931348623157E+308", // double.MaxValue
        "-1.7976931348623157E+308",
        "5E-324", // double.Epsilon
        "-0.0",
        "-0",
        "1e300",
        "1E+30",
        "0.1",
        "0.30000000000000004",
        "123456789012.0",
        "1.50",
        "100000000000000000000000000000000000000000", // 1E+41: a double's shortest text holds it
    };

    [Theory]
    [MemberData(nameof(Extremes))]
    public void Every_write_path_stores_the_number_so_every_read_path_gives_it_back(string number)
    {
        var json = $$"""{"n":{{number}},"a":[{{number}},1]}""";
        var utf8 = Encoding.UTF8.GetBytes(json);
        var fast = DocumentContent.FromJson(utf8);
        var reader = new Utf8JsonReader(utf8);
        reader.Read();
        var checkedBson = StrictJson.ToCheckedBson(ref reader, utf8, "The document", leaveOut: null);
        var fromJObject = DocumentContent.FromJObject(new JObject { ["n"] = ExactToken(number), ["a"] = new JArray(ExactToken(number), 1L) });
        var fromBson = DocumentContent.FromBson(fast.Bson.Span);

        Assert.Equal(fast.Bson.ToArray(), checkedBson);
        Assert.Equal(fast.Bson.ToArray(), fromJObject.Bson.ToArray());
        Assert.Equal(fast.Bson.ToArray(), fromBson.Bson.ToArray());
        AssertReadsBack(number, fast);
    }

    [Theory]
    [MemberData(nameof(Extremes))]
    public void The_number_reads_back_from_the_store_also_through_the_newtonsoft_hand_off(string number)
    {
        using var store = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        // A name of 128 bytes or more hands the rest of the document to BsonDataReader, which cannot read decimal128.
        var longName = new string('x', 130);
        store.Put("k", DocumentContent.FromJson($$"""{"n":{{number}},"{{longName}}":1,"m":{{number}}}"""));

        var document = store.Get("k")!;

        AssertSameNumber(number, document.Data.GetProperty("n").GetRawText());
        AssertSameNumber(number, document.Data.GetProperty("m").GetRawText());
        AssertSameNumber(number, JValueText(document.ToJObject()["m"]!));
    }

    [Fact]
    public void Numbers_that_were_stored_before_keep_their_bytes()
    {
        var bson = DocumentContent.FromJson("""{"i":1,"l":9223372036854775807,"d":0.5,"e":1e300,"s":0.30000000000000004,"z":-0.0}""").Bson.ToArray();

        Assert.Equal(
            Doc(El(BsonType.Int64, "i", I64(1)), El(BsonType.Int64, "l", I64(long.MaxValue)), El(BsonType.Double, "d", F64(0.5)),
                El(BsonType.Double, "e", F64(1e300)), El(BsonType.Double, "s", F64(0.1 + 0.2)), El(BsonType.Double, "z", F64(-0.0))),
            bson);
    }

    [Fact]
    public void A_number_a_double_cannot_hold_is_stored_as_decimal128()
    {
        var bson = DocumentContent.FromJson("""{"n":18446744073709551615}""").Bson.ToArray();

        Assert.Equal(0x13, bson[4]);
        Assert.Equal("""{"n":18446744073709551615}""", DocumentContent.FromBson(bson).ToString());
    }

    [Theory]
    [InlineData("123456789012345678901234567890123456789")] // 39 digits: beyond decimal128
    [InlineData("0.1234567890123456789012345678901")] // 31 decimal places: no .NET decimal holds it
    [InlineData("1e-400")] // a double would make it 0
    [InlineData("4.9e-324")] // a double would make it 5E-324
    public void A_number_nothing_stores_exactly_is_refused_rather_than_changed(string number)
    {
        var ex = Assert.Throws<ArgumentException>(() => DocumentContent.FromJson($$"""{"n":{{number}}}"""));

        Assert.Contains("cannot store exactly", ex.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => DocumentContent.FromJObject(new JObject { ["n"] = new JValue(BigInteger.Parse("123456789012345678901234567890123456789", CultureInfo.InvariantCulture)) }));
    }

    [Fact]
    public void A_number_beyond_a_double_is_still_refused_with_its_message()
    {
        var ex = Assert.Throws<ArgumentException>(() => DocumentContent.FromJson("""{"n":1e400}"""));

        Assert.Contains("out of the range a double can hold", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Typed_values_written_straight_to_bson_read_back_as_the_same_values()
    {
        var serializer = JsonSerializer.CreateDefault();
        var entity = new Extreme();

        var direct = Direct(serializer, entity);
        var viaText = DocumentContent.FromJson(Text(serializer, entity));

        Assert.Equal(viaText.Bson.ToArray(), direct.Bson.ToArray());
        AssertSameValues(entity, JsonConvert.DeserializeObject<Extreme>(direct.ToString())!, "typed");
        var copy = FromStore(direct).ToJObject();
        Assert.Equal(decimal.MaxValue, copy["Decimal"]!.ToObject<decimal>());
        Assert.Equal(ulong.MaxValue, copy.ToObject<Extreme>()!.Huge);
        Assert.Equal(entity.Decimals, copy["Decimals"]!.ToObject<List<decimal>>());
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Generated_decimals_ulongs_and_doubles_read_back_equal_through_every_path(int seed)
    {
        var random = new Random(seed);
        var serializer = JsonSerializer.CreateDefault();
        using var store = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        for (var i = 0; i < 400; i++)
        {
            var entity = new Extreme
            {
                Decimal = new decimal(random.Next(), random.Next(), random.Next(), random.Next(2) == 0, (byte)random.Next(29)),
                Decimals =
                [
                    new decimal(random.Next(), random.Next(), 0, random.Next(2) == 0, (byte)random.Next(29)),
                    decimal.Round((decimal)random.NextDouble(), random.Next(29)),
                    random.NextInt64(long.MinValue, long.MaxValue) / 10m,
                    random.NextInt64(long.MinValue, long.MaxValue),
                ],
                Huge = (ulong)random.NextInt64() * 2 + (ulong)random.Next(2),
                Long = random.NextInt64(long.MinValue, long.MaxValue),
                Double = BitConverter.Int64BitsToDouble(random.NextInt64() & 0x7FEFFFFFFFFFFFFF) * (random.Next(2) == 0 ? 1 : -1),
                Float = (float)random.NextDouble() * random.Next(),
            };
            var context = $"(seed {seed}, entity {i}: {JsonConvert.SerializeObject(entity)})";
            var direct = Direct(serializer, entity);
            var viaText = DocumentContent.FromJson(Text(serializer, entity));
            var viaJObject = DocumentContent.FromJObject(JObject.FromObject(entity, serializer));
            Assert.True(direct.Bson.Span.SequenceEqual(viaText.Bson.Span), "direct and via text differ " + context);

            store.Put("k", direct);
            var document = store.Get("k")!;
            AssertSameValues(entity, JsonConvert.DeserializeObject<Extreme>(Encoding.UTF8.GetString(document.DataJson.Span))!, "typed " + context);
            // A JObject holds each number exactly; as Newtonsoft's own parser does, it holds a 16- or 17-digit number as
            // the double it is stored as, which JToken.ToObject<decimal> rounds to 15 digits: compared as JSON numbers.
            var numbers = Numbers(document.Data);
            var copied = document.ToJObject().Descendants().Where(t => t is JValue { Type: JTokenType.Integer or JTokenType.Float }).ToList();
            Assert.Equal(numbers.Count, copied.Count);
            for (var n = 0; n < numbers.Count; n++)
                AssertSameNumber(numbers[n], JValueText(copied[n]));
            AssertSameValues(entity, JsonConvert.DeserializeObject<Extreme>(viaJObject.ToString())!, "written from a JObject " + context);
        }
    }

    [Theory]
    [InlineData("0000000000000000000000000000407C", "\"NaN\"")] // NaN
    [InlineData("00000000000000000000000000000078", "\"Infinity\"")]
    [InlineData("000000000000000000000000000000F8", "\"-Infinity\"")]
    [InlineData("01000000000000000000000000003C30", "0.01")] // 1E-2
    [InlineData("0100000000000000000000000000FE5F", "1E+6111")] // the largest exponent
    [InlineData("FFFFFFFFFFFFFFFFFFFFFFFFFFFF4130", "0")] // a coefficient past 34 digits is non-canonical: zero
    public void Decimal128_from_elsewhere_reads_as_json(string valueHex, string json)
    {
        var bson = One(BsonType.Decimal128, Convert.FromHexString(valueHex));

        Assert.Equal($$"""{"v":{{json}}}""", Transcoding.New(bson).Text);
        Assert.Equal($$"""{"v":{{json}}}""", Transcoding.HandOffOnly(bson).Text);
        Assert.Equal($$"""{"v":{{json}}}""", DocumentContent.FromBson(bson).ToString());
    }

    /// <summary>The text of every number in <paramref name="element"/>, in document order.</summary>
    private static List<string> Numbers(System.Text.Json.JsonElement element) => element.ValueKind switch
    {
        System.Text.Json.JsonValueKind.Object => [.. element.EnumerateObject().SelectMany(p => Numbers(p.Value))],
        System.Text.Json.JsonValueKind.Array => [.. element.EnumerateArray().SelectMany(Numbers)],
        System.Text.Json.JsonValueKind.Number => [element.GetRawText()],
        _ => [],
    };

    /// <summary>Every value equal (a decimal's trailing zeros aside, as decimal equality has it; doubles to the bit, so -0.0 too).</summary>
    private static void AssertSameValues(Extreme expected, Extreme actual, string context)
    {
        var message = $"{context}: read back as {JsonConvert.SerializeObject(actual)}";
        Assert.True(expected.Decimal == actual.Decimal && expected.Decimals.SequenceEqual(actual.Decimals), message);
        Assert.True(expected.Huge == actual.Huge && expected.Long == actual.Long, message);
        Assert.True(expected.Doubles.Append(expected.Double).Select(BitConverter.DoubleToInt64Bits)
            .SequenceEqual(actual.Doubles.Append(actual.Double).Select(BitConverter.DoubleToInt64Bits)), message);
        Assert.True(BitConverter.SingleToInt32Bits(expected.Float) == BitConverter.SingleToInt32Bits(actual.Float), message);
    }

    private void AssertReadsBack(string number, DocumentContent content)
    {
        var text = content.ToString();
        using var parsed = JsonDocument.Parse(text);
        AssertSameNumber(number, parsed.RootElement.GetProperty("n").GetRawText());
        AssertSameNumber(number, parsed.RootElement.GetProperty("a")[0].GetRawText());
        var document = FromStore(content);
        AssertSameNumber(number, document.Data.GetProperty("n").GetRawText());
        AssertSameNumber(number, JValueText(document.ToJObject()["n"]!));
        AssertSameNumber(number, JValueText(JObject.Parse(text)["n"]!), newtonsoftText: true);
    }

    private Document FromStore(DocumentContent content)
    {
        using var store = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        store.Put("k", content);
        return store.Get("k")!;
    }

    /// <summary>The exact number a JValue holds, as text.</summary>
    private static string JValueText(JToken token) => ((JValue)token).Value switch
    {
        double d => d.ToString("R", CultureInfo.InvariantCulture),
        decimal m => m.ToString(CultureInfo.InvariantCulture),
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        var other => throw new InvalidOperationException($"not a number: {other}"),
    };

    /// <summary>
    /// Asserts two JSON numbers are the same number. Newtonsoft's own parser (<c>JObject.Parse</c>) reads every
    /// fraction as a double, so through it a number only has to be the nearest double.
    /// </summary>
    private static void AssertSameNumber(string expected, string actual, bool newtonsoftText = false)
    {
        if (newtonsoftText && Exact(expected).Exponent < 0)
        {
            Assert.Equal(double.Parse(expected, CultureInfo.InvariantCulture), double.Parse(actual, CultureInfo.InvariantCulture));
            return;
        }
        Assert.True(Exact(expected) == Exact(actual), $"{expected} read back as {actual}");
    }

    /// <summary>A number as an integer coefficient without trailing zeros and a power of ten, parsed independently of the code under test.</summary>
    private static (BigInteger Coefficient, int Exponent) Exact(string text)
    {
        var match = NumberPattern().Match(text);
        Assert.True(match.Success, $"not a JSON number: {text}");
        var digits = match.Groups[2].Value + match.Groups[3].Value;
        var exponent = (match.Groups[4].Success ? int.Parse(match.Groups[4].Value, CultureInfo.InvariantCulture) : 0) - match.Groups[3].Value.Length;
        var coefficient = BigInteger.Parse(digits, CultureInfo.InvariantCulture) * (match.Groups[1].Value == "-" ? -1 : 1);
        if (coefficient.IsZero)
            return (0, 0);
        while (coefficient % 10 == 0)
        {
            coefficient /= 10;
            exponent++;
        }
        return (coefficient, exponent);
    }

    /// <summary>The JValue that holds <paramref name="number"/> exactly (as a caller building a JObject would have it).</summary>
    private static JValue ExactToken(string number)
    {
        var exact = Exact(number);
        if (!number.AsSpan().ContainsAny(".eE"))
            return exact.Coefficient * BigInteger.Pow(10, exact.Exponent) is var integer && integer >= long.MinValue && integer <= long.MaxValue
                ? new JValue((long)integer)
                : new JValue(integer);
        var d = double.Parse(number, CultureInfo.InvariantCulture);
        if (Exact(d.ToString("R", CultureInfo.InvariantCulture)) != exact
            && decimal.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var m) && Exact(m.ToString(CultureInfo.InvariantCulture)) == exact)
            return new JValue(m);
        return new JValue(d);
    }

    private static DocumentContent Direct(JsonSerializer serializer, object value)
    {
        using var writer = new DocumentContentWriter();
        serializer.Serialize(writer, value);
        return writer.TakeContent() ?? throw new InvalidOperationException("declined");
    }

    private static byte[] Text(JsonSerializer serializer, object value)
    {
        var text = new StringWriter(CultureInfo.InvariantCulture);
        serializer.Serialize(text, value);
        return Encoding.UTF8.GetBytes(text.ToString());
    }

    [GeneratedRegex(@"^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$")]
    private static partial Regex NumberPattern();

    private sealed class Extreme
    {
        public decimal Decimal { get; set; } = decimal.MaxValue;

        [JsonProperty(ObjectCreationHandling = ObjectCreationHandling.Replace)]
        public List<decimal> Decimals { get; set; } =
            [decimal.MinValue, 0.0000000000000000000000000001m, 1234567890.123456789012345678m, -0.1234567890123456789012345678m, 12.99m, 1.10m, 9007199254740993m, 1e28m];

        public ulong Huge { get; set; } = ulong.MaxValue;

        public long Long { get; set; } = long.MinValue;

        public double Double { get; set; } = double.Epsilon;

        [JsonProperty(ObjectCreationHandling = ObjectCreationHandling.Replace)]
        public List<double> Doubles { get; set; } = [double.MaxValue, -0.0, 1e300, 9007199254740993, 0.1 + 0.2];

        public float Float { get; set; } = float.MaxValue;
    }
}
