using System.Numerics;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Converters;
using Newtonsoft.Json.Linq;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;
using JsonReaderOptions = System.Text.Json.JsonReaderOptions;
using Utf8JsonReader = System.Text.Json.Utf8JsonReader;

namespace RavenLite.Storage.Tests.Bson;

/// <summary>
/// An object serialized into <see cref="DocumentContentWriter"/> becomes exactly the BSON that its JSON text (from a
/// <see cref="JsonTextWriter"/>) becomes through <see cref="DocumentContent.FromJson(ReadOnlySpan{byte})"/> and through
/// the checked Newtonsoft.Json.Bson writer; what the writer cannot mirror it declines, leaving it to that path.
/// </summary>
public sealed class DocumentContentWriterTests
{
    private static readonly DateTime Moment = new(2026, 11, 24, 5, 31, 3, 123, DateTimeKind.Utc);

    public static TheoryData<string> Settings => new() { "default", "utc dates", "local dates", "unspecified dates", "html escaping", "string enums" };

    private static JsonSerializer Serializer(string settings) => JsonSerializer.Create(settings switch
    {
        "utc dates" => new JsonSerializerSettings { DateTimeZoneHandling = DateTimeZoneHandling.Utc },
        "local dates" => new JsonSerializerSettings { DateTimeZoneHandling = DateTimeZoneHandling.Local },
        "unspecified dates" => new JsonSerializerSettings { DateTimeZoneHandling = DateTimeZoneHandling.Unspecified },
        "html escaping" => new JsonSerializerSettings { StringEscapeHandling = StringEscapeHandling.EscapeHtml },
        "string enums" => new JsonSerializerSettings { Converters = [new StringEnumConverter()] },
        _ => new JsonSerializerSettings(),
    });

    [Theory]
    [MemberData(nameof(Settings))]
    public void An_entity_of_every_json_type_encodes_as_its_json_text_does(string settings)
    {
        var serializer = Serializer(settings);
        var entity = new EveryType();
        Assert.Equal(ViaText(serializer, entity), Direct(serializer, entity));
    }

    public static TheoryData<string> Values => new()
    {
        "numbers", "huge numbers", "edge doubles", "floats", "decimals", "dates", "text", "nested", "nulls", "dictionary", "jtoken",
    };

    [Theory]
    [MemberData(nameof(Values))]
    public void Values_encode_as_their_json_text_does(string values)
    {
        object value = values switch
        {
            "numbers" => new { a = long.MinValue, b = long.MaxValue, c = ulong.MaxValue / 2, d = uint.MaxValue, e = (sbyte)-5, f = (short)-300, g = (ushort)60000, h = (byte)255, i = 0 },
            "huge numbers" => new { a = ulong.MaxValue, b = ulong.MaxValue - 1, c = (ulong)long.MaxValue + 1, d = 0.0000000000000000000000000001m, e = 1234567890.123456789012345678m, f = 9007199254740993m, g = 1e28m },
            "edge doubles" => new { a = 1.0, b = -0.0, c = 1e300, d = double.Epsilon, e = double.MaxValue, f = 0.1 + 0.2, g = 123456789012.0, h = 1e15, i = 6.66 },
            "floats" => new { a = 1.1f, b = 3f, c = float.MaxValue, d = float.Epsilon, e = -0f },
            "decimals" => new { a = 12.50m, b = 12m, c = decimal.MaxValue, d = 0.1m, e = -0.000001m, f = decimal.MinValue },
            "dates" => new
            {
                utc = Moment, local = Moment.ToLocalTime(), unspecified = DateTime.SpecifyKind(Moment, DateTimeKind.Unspecified),
                min = DateTime.MinValue, max = DateTime.MaxValue, offset = new DateTimeOffset(Moment).ToOffset(TimeSpan.FromHours(5.5)),
                span = TimeSpan.FromMilliseconds(-90061001), guid = Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e"),
            },
            "text" => new
            {
                empty = "", ascii = "moohahaha", accents = "ünïcödé", emoji = "\ud83d\ude00", quotes = "\"q\" \\ / \b\f\n\r\t",
                control = "a\u0000b\u001f", separators = "\u0085\u2028\u2029", html = "<a href='x'>&</a>", c = 'é', newline = '\n',
                uri = new Uri("https://example.org/a b?q=ü", UriKind.Absolute), relative = new Uri("../x", UriKind.Relative),
                bytes = new byte[] { 0, 1, 2, 250, 255 }, noBytes = Array.Empty<byte>(),
            },
            "nested" => new
            {
                arrays = new object[] { new[] { 1, 2 }, new object[] { Array.Empty<int>(), new List<List<int>> { new() { 3 } } }, Array.Empty<object>() },
                objects = new { a = new { b = new { c = new[] { new { d = 1 } } } } },
                mixed = new List<object?> { 1, "two", 3.5, null, true, new { six = 6 }, new List<long> { 7L } },
            },
            "nulls" => new { s = (string?)null, i = (int?)null, d = (DateTime?)null, u = (Uri?)null, b = (byte[]?)null, o = (object?)null, l = (List<int>?)null },
            "dictionary" => new Dictionary<string, object?> { ["é"] = 1, ["with \"quotes\""] = 2, ["\ud83d\ude00"] = null, [""] = "empty name", ["tab\t"] = 2.5 },
            _ => JObject.Parse("""{"a":1,"b":[1.5,"x",null,true,{"c":{}}],"d":"2026-11-24T05:31:03Z","big":1234567890123456789,"e":1e-7}"""),
        };
        var serializer = Serializer("default");
        Assert.Equal(ViaText(serializer, value), Direct(serializer, value));
    }

    public static TheoryData<string> Declined => new()
    {
        "top-level array", "top-level string", "raw json", "big integer", "NaN", "infinite float", "lone surrogate",
        "lone surrogate name", "NUL in name", "name twice", "name twice among many", "name twice among more than 64",
        "name twice as equal strings", "name twice around an object that has it", "custom date format", "Microsoft dates", "too deep",
    };

    [Theory]
    [MemberData(nameof(Declined))]
    public void What_it_cannot_mirror_is_declined_and_left_to_the_json_text(string what)
    {
        var settings = new JsonSerializerSettings();
        object value = what switch
        {
            "top-level array" => new[] { 1 },
            "top-level string" => "text",
            "raw json" => new { a = new JRaw("[1, 2]") },
            "big integer" => new { a = BigInteger.Parse("123456789012345678901234567890", System.Globalization.CultureInfo.InvariantCulture) },
            "NaN" => new { a = double.NaN },
            "infinite float" => new { a = float.PositiveInfinity },
            "lone surrogate" => new { a = "x\ud800y" },
            "lone surrogate name" => new Dictionary<string, int> { ["\udc00"] = 1 },
            "NUL in name" => new Dictionary<string, int> { ["a\0b"] = 1 },
            "name twice" => new TwiceNamed(),
            "name twice among many" => new TwiceNamed { Many = 40 },
            "name twice among more than 64" => new TwiceNamed { Many = 100 },
            "name twice as equal strings" => new TwiceNamed { EqualCopy = true },
            "name twice around an object that has it" => new TwiceNamed { NestedBetween = true },
            "custom date format" => new { a = Moment },
            "Microsoft dates" => new { a = Moment },
            _ => Nested(DocumentContent.MaxDepth + 1),
        };
        if (what == "custom date format")
            settings.DateFormatString = "yyyy/MM/dd";
        if (what == "Microsoft dates")
            settings.DateFormatHandling = DateFormatHandling.MicrosoftDateFormat;
        var serializer = JsonSerializer.Create(settings);
        Assert.Null(Direct(serializer, value));
    }

    [Fact]
    public void Nesting_up_to_the_limit_is_encoded()
    {
        var serializer = Serializer("default");
        var value = Nested(DocumentContent.MaxDepth);
        Assert.Equal(ViaText(serializer, value), Direct(serializer, value));
    }

    [Fact]
    public void One_writer_encodes_document_after_document_also_after_a_declined_one()
    {
        var serializer = Serializer("default");
        using var writer = new DocumentContentWriter();
        foreach (var value in new object[] { new EveryType(), new { a = double.NaN }, new { b = 2, c = new[] { "x" } }, new EveryType() })
        {
            serializer.Serialize(writer, value);
            var content = writer.TakeContent();
            Assert.Equal(WriteState.Start, writer.WriteState);
            if (value.GetType().GetProperty("a") is not null)
                Assert.Null(content);
            else
                Assert.Equal(ViaText(serializer, value), content!.Bson.ToArray());
        }
        Assert.Null(writer.TakeContent());
    }

    [Fact]
    public void A_nested_object_may_have_its_parent_s_names()
    {
        var serializer = Serializer("default");
        foreach (var value in new object[] { new TwiceNamed { NestedBetween = true, Once = true }, new { a = 1, b = new { a = 2, b = new[] { new { a = 3 } } } } })
            Assert.Equal(ViaText(serializer, value), Direct(serializer, value));
    }

    [Fact]
    public void One_writer_encodes_names_in_any_order_and_any_subset()
    {
        var serializer = Serializer("default");
        using var writer = new DocumentContentWriter();
        object[] values =
        [
            new { a = 1, b = "x", c = 2.5 }, new { c = 1, a = 2 }, new { a = 1, b = "x", c = 2.5 }, new { b = true },
            new Dictionary<string, int> { ["a"] = 1, ["z"] = 2, ["b"] = 3 }, new Dictionary<string, int> { [new string("a".AsSpan())] = 4 },
            new { a = 1, b = "x", c = 2.5 },
        ];
        foreach (var value in values)
        {
            serializer.Serialize(writer, value);
            Assert.Equal(ViaText(serializer, value), writer.TakeContent()!.Bson.ToArray());
        }
    }

    [Fact]
    public void The_seed_cart_read_back_as_a_jobject_encodes_as_it_is_stored()
    {
        var seed = JObject.Parse(DocumentContent.FromBson(Infrastructure.SeedCart.Data).ToString());
        Assert.Equal(Infrastructure.SeedCart.Data.ToArray(), Direct(Serializer("default"), seed));
    }

    /// <summary>Objects and arrays inside each other, <paramref name="depth"/> levels in all, the outermost an object.</summary>
    private static object Nested(int depth)
    {
        object value = new Dictionary<string, int>();
        for (var level = depth - 1; level >= 1; level--)
            value = level % 2 == 1 ? new Dictionary<string, object> { ["a"] = value } : new List<object> { value };
        return value;
    }

    /// <summary>The BSON of the JSON text a JsonTextWriter writes: through DocumentContent.FromJson, checked to equal the checked writer's.</summary>
    private static byte[] ViaText(JsonSerializer serializer, object value)
    {
        using var stream = new MemoryStream();
        using (var text = new StreamWriter(stream, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false), 1024, leaveOpen: true))
        using (var json = new JsonTextWriter(text))
            serializer.Serialize(json, value);
        var utf8 = stream.ToArray();
        var bson = DocumentContent.FromJson(utf8).Bson.ToArray();
        var reader = new Utf8JsonReader(utf8, new JsonReaderOptions { MaxDepth = 256 });
        reader.Read();
        Assert.Equal(StrictJson.ToCheckedBson(ref reader, utf8, "The document", leaveOut: null), bson);
        return bson;
    }

    private static byte[]? Direct(JsonSerializer serializer, object value)
    {
        using var writer = new DocumentContentWriter();
        serializer.Serialize(writer, value);
        return writer.TakeContent()?.Bson.ToArray();
    }

    private enum Colour { Red, Green = 7 }

    private sealed class EveryType
    {
        public string Text { get; set; } = "brimstone ü \ud83d\ude00 \"quoted\"";
        public int Int { get; set; } = -42;
        public long Long { get; set; } = 9_007_199_254_740_993;
        public double Double { get; set; } = 6.66;
        public double Whole { get; set; } = 12.0;
        public float Float { get; set; } = 0.1f;
        public decimal Decimal { get; set; } = 19.990m;
        public bool Bool { get; set; } = true;
        public char Char { get; set; } = 'x';
        public DateTime Date { get; set; } = Moment;
        public DateTime LocalDate { get; set; } = Moment.ToLocalTime();
        public DateTimeOffset Offset { get; set; } = new(2026, 1, 2, 3, 4, 5, TimeSpan.FromHours(-7));
        public Guid Guid { get; set; } = Guid.Parse("c9a646d3-9c61-4cb7-bfcd-ee2522c8f633");
        public TimeSpan Span { get; set; } = new(1, 2, 3, 4, 5);
        public Colour Colour { get; set; } = Colour.Green;
        public int? NoInt { get; set; }
        public string? NoText { get; set; }
        public byte[] Bytes { get; set; } = [1, 2, 3];
        public List<Line> Lines { get; set; } = [new() { Name = "a", Price = 2.5 }, new() { Name = "b", Price = 3 }];
        public int[][] Grid { get; set; } = [[1, 2], [], [3]];
        public Dictionary<string, object?> Extra { get; set; } = new() { ["n"] = null, ["x"] = 1.5, ["list"] = new List<object> { "a", 1 } };
    }

    private sealed class Line
    {
        public string? Name { get; set; }
        public double Price { get; set; }
    }

    /// <summary>Writes one name twice (after <see cref="Many"/> others), as a careless converter might.</summary>
    [JsonConverter(typeof(TwiceNamedConverter))]
    private sealed class TwiceNamed
    {
        public int Many { get; set; }

        /// <summary>The second time as another string with the same text.</summary>
        public bool EqualCopy { get; set; }

        /// <summary>An object between the two that has the name too.</summary>
        public bool NestedBetween { get; set; }

        /// <summary>Only once after all.</summary>
        public bool Once { get; set; }
    }

    private sealed class TwiceNamedConverter : JsonConverter<TwiceNamed>
    {
        public override void WriteJson(JsonWriter writer, TwiceNamed? value, JsonSerializer serializer)
        {
            writer.WriteStartObject();
            for (var i = 0; i < value!.Many; i++)
            {
                writer.WritePropertyName("p" + i);
                writer.WriteValue(i);
            }
            writer.WritePropertyName("twice");
            writer.WriteValue(1);
            if (value.NestedBetween)
            {
                writer.WritePropertyName("inner");
                writer.WriteStartObject();
                writer.WritePropertyName("twice");
                writer.WriteValue(5);
                writer.WriteEndObject();
            }
            if (!value.Once)
            {
                writer.WritePropertyName(value.EqualCopy ? new string("twice".AsSpan()) : "twice");
                writer.WriteValue(2);
            }
            writer.WriteEndObject();
        }

        public override TwiceNamed ReadJson(JsonReader reader, Type objectType, TwiceNamed? existingValue, bool hasExistingValue, JsonSerializer serializer) =>
            throw new NotSupportedException();
    }
}
