using System.Text;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Tests.Issues;

/// <summary>
/// Issue 11: JSON is parsed strictly by RFC 8259. Everything else is an <see cref="ArgumentException"/> naming the
/// position; everything valid reads back equal (numbers: see docs/reliability.md).
/// </summary>
public sealed class StrictJsonTests
{
    public static TheoryData<string, string> Invalid => new()
    {
        { """{'a':1}""", "byte 2" },
        { """{"a":'x'}""", "byte 6" },
        { """{a:1}""", "byte 2" },
        { """{1:1}""", "byte 2" },
        { """{"a":1,}""", "byte 8" },
        { """{"a":[1,2,]}""", "byte 11" },
        { "{\"asd\":\"asd\"", "line 1, byte 13" },
        { """{"a":1 // note""" + "\n}", "line 1" },
        { """{"a":/* c */1}""", "byte 6" },
        { """{"a":NaN}""", "byte 6" },
        { """{"a":Infinity}""", "byte 6" },
        { """{"a":-Infinity}""", "byte 7" },
        { """{"a":01}""", "byte 7" },
        { """{"a":1.}""", "byte 8" },
        { """{"a":.5}""", "byte 6" },
        { """{"a":+1}""", "byte 6" },
        { """{"a":0x10}""", "byte 7" },
        { """{"a":undefined}""", "byte 6" },
        { """{"a":"tab	in string"}""", "byte 10" },
        { """{"a":"\x41"}""", "byte 8" },
        { """{"a":1}{"b":2}""", "byte 8" },
        { """{"a":1} x""", "byte 9" },
        { "{\"a\":1}\n\n {", "line 3, byte 2" },
        { """{"a":1 "b":2}""", "byte 8" },
        { """{"a" 1}""", "byte 6" },
    };

    [Theory]
    [MemberData(nameof(Invalid))]
    public void Invalid_json_is_refused_naming_the_position(string json, string position)
    {
        var ex = Assert.Throws<ArgumentException>(() => DocumentContent.FromJson(json));
        Assert.Contains("not valid JSON at line", ex.Message, StringComparison.Ordinal);
        Assert.Contains(position, ex.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => DocumentContent.FromJson(Encoding.UTF8.GetBytes(json)));
    }

    [Fact]
    public void Invalid_utf8_and_lone_surrogates_are_refused()
    {
        Assert.Throws<ArgumentException>(() => DocumentContent.FromJson([(byte)'{', (byte)'"', 0xC3, (byte)'"', (byte)':', (byte)'1', (byte)'}']));
        Assert.Throws<ArgumentException>(() => DocumentContent.FromJson("""{"a":"\ud800"}"""));
        Assert.Throws<ArgumentException>(() => DocumentContent.FromJson("""{"\udc00":1}"""));
        Assert.Throws<ArgumentException>(() => DocumentContent.FromJson("{\"a\":\"\ud800\"}")); // a raw lone surrogate in the .NET string
    }

    [Fact]
    public void A_name_given_twice_in_one_object_is_refused_naming_it()
    {
        var ex = Assert.Throws<ArgumentException>(() => DocumentContent.FromJson("""{"a":{"x":1,"y":2,"x":3}}"""));
        Assert.Contains("'x'", ex.Message, StringComparison.Ordinal);
        DocumentContent.FromJson("""{"a":{"x":1},"b":{"x":2}}"""); // the same name in different objects is fine
    }

    [Theory]
    [InlineData("""{"n":1e400}""")]
    [InlineData("""{"n":-1E+309}""")]
    public void A_number_beyond_the_range_of_a_double_is_refused(string json)
    {
        var ex = Assert.Throws<ArgumentException>(() => DocumentContent.FromJson(json));
        Assert.Contains("range", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("""{"n":0}""", """{"n":0}""")]
    [InlineData("""{"n":-0}""", """{"n":0}""")]
    [InlineData("""{"n":9223372036854775807}""", """{"n":9223372036854775807}""")]
    [InlineData("""{"n":-9223372036854775808}""", """{"n":-9223372036854775808}""")]
    [InlineData("""{"n":9223372036854775808}""", """{"n":9223372036854775808}""")] // decimal128 (issue 28)
    [InlineData("""{"n":123456789012345678901234567890}""", """{"n":123456789012345678901234567890}""")]
    [InlineData("""{"n":0.1}""", """{"n":0.1}""")]
    [InlineData("""{"n":1.0}""", """{"n":1}""")]
    [InlineData("""{"n":1E2}""", """{"n":100}""")]
    [InlineData("""{"n":-2.5e-3}""", """{"n":-0.0025}""")]
    [InlineData("""{"n":1.7976931348623157e308}""", """{"n":1.7976931348623157E+308}""")]
    [InlineData("""{"n":5e-324}""", """{"n":5E-324}""")] // 1e-400 and 4.9e-324, which no double holds, are refused: ExactNumberTests
    [InlineData(""" { "a" : [ true , false , null , "" , { } , [ ] ] } """, """{"a":[true,false,null,"",{},[]]}""")]
    [InlineData("""{"\u0041\t":"\u00e9\ud83d\ude00\/"}""", "{\"A\\t\":\"é\\uD83D\\uDE00/\"}")] // astral characters are written escaped
    [InlineData("""{"":""}""", """{"":""}""")]
    public void Valid_json_reads_back_equal(string json, string expected)
    {
        Assert.Equal(expected, DocumentContent.FromJson(json).ToString());
        Assert.Equal(expected, DocumentContent.FromJson(Encoding.UTF8.GetBytes(json)).ToString());
    }

    [Fact]
    public void Nesting_up_to_the_limit_is_accepted_and_one_more_level_is_refused()
    {
        static string Nest(int levels) => string.Concat(Enumerable.Repeat("""{"a":""", levels - 1)) + "[]" + new string('}', levels - 1);
        Assert.Equal(Nest(DocumentContent.MaxDepth), DocumentContent.FromJson(Nest(DocumentContent.MaxDepth)).ToString());
        var ex = Assert.Throws<ArgumentException>(() => DocumentContent.FromJson(Nest(DocumentContent.MaxDepth + 1)));
        Assert.Contains($"{DocumentContent.MaxDepth}", ex.Message, StringComparison.Ordinal);
    }
}
