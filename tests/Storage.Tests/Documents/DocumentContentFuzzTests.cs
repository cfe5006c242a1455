using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Documents;

/// <summary>
/// Issue 11's fuzz promise: random JSON (valid and broken) and random BSON thrown at <see cref="DocumentContent"/>
/// and <see cref="DocumentStore.Put(string, DocumentContent, DocumentContent?, long?, CommitMode)"/> get either an
/// <see cref="ArgumentException"/> or a document that reads back equal; never another exception. Issue 20's: BSON
/// with a bad boolean or text that is not UTF-8 is always refused. Fixed seeds, a fixed number of cases, and a time
/// budget a hang would blow.
/// </summary>
public sealed class DocumentContentFuzzTests : IDisposable
{
    private const int Seed = 20261123;
    private static readonly TimeSpan Budget = TimeSpan.FromMinutes(2);

    private readonly TempDirectory _dir = new();
    private readonly DocumentStore _store;
    private int _puts;

    public DocumentContentFuzzTests() => _store = Open(StorageEngineKind.Lmdb, _dir.Path);

    public void Dispose()
    {
        _store.Dispose();
        _dir.Dispose();
    }

    [Fact]
    public void Random_json_is_refused_with_ArgumentException_or_reads_back_equal()
    {
        var random = new Random(Seed);
        var generator = new RandomJson(random);
        var clock = Stopwatch.StartNew();
        int accepted = 0, refused = 0;
        for (var i = 0; i < 4000; i++)
        {
            Assert.True(clock.Elapsed < Budget, $"the fuzz run took over {Budget} (case {i})");
            var json = generator.Document();
            if (i % 2 == 1)
                json = RandomJson.Break(json, random);
            if (TryFromJson(json, $"case {i}") is { } content)
            {
                AssertReadsBackEqual(json, content, $"case {i}");
                accepted++;
            }
            else
            {
                refused++;
            }
        }
        // Both outcomes must really have been exercised, or the test proves little.
        Assert.InRange(accepted, 1000, 4000);
        Assert.InRange(refused, 1000, 4000);
    }

    [Fact]
    public void Random_bson_is_refused_with_ArgumentException_or_stored_byte_for_byte_and_readable()
    {
        var random = new Random(Seed);
        var generator = new RandomBson(Seed, strict: true);
        var clock = Stopwatch.StartNew();
        int accepted = 0, refused = 0;
        for (var i = 0; i < 3000; i++)
        {
            Assert.True(clock.Elapsed < Budget, $"the fuzz run took over {Budget} (case {i})");
            var bson = generator.Document();
            if (i % 3 != 0)
                bson = Damage(bson, random);
            DocumentContent content;
            try
            {
                content = DocumentContent.FromBson(bson);
            }
            catch (ArgumentException)
            {
                refused++;
                continue;
            }
            catch (Exception ex)
            {
                throw new Xunit.Sdk.XunitException($"case {i}: {ex.GetType().Name} instead of ArgumentException: {ex}");
            }
            Assert.Equal(bson, content.Bson.ToArray());
            var json = content.ToString(); // reading must not throw
            using (JsonDocument.Parse(json, new JsonDocumentOptions { MaxDepth = 1000 }))
            {
            }
            if (i % 10 == 0)
                Assert.Equal(json, PutAndRead(content));
            accepted++;
        }
        Assert.InRange(accepted, 300, 3000);
        Assert.InRange(refused, 300, 3000);
    }

    [Fact]
    public void Random_bson_with_a_bad_boolean_or_text_that_is_not_utf8_is_refused_naming_the_element()
    {
        // Bytes that are never part of UTF-8, wherever they stand: one of them makes any text invalid.
        byte[] neverUtf8 = [0xC0, 0xC1, 0xF5, 0xF8, 0xFE, 0xFF];
        var random = new Random(Seed);
        var generator = new RandomBson(Seed + 1, strict: true);
        var clock = Stopwatch.StartNew();
        var refused = new int[3];
        for (var i = 0; i < 2000; i++)
        {
            Assert.True(clock.Elapsed < Budget, $"the fuzz run took over {Budget} (case {i})");
            var bson = generator.Document();
            if (!Accepts(bson))
                continue; // refused for another reason (a UUID of the wrong length), which would be reported first
            var layout = BsonLayout.Of(bson);
            var texts = layout.Texts.Where(t => t.Length > 0).ToList();
            var names = Enumerable.Range(0, layout.Types.Count).Where(e => layout.NameEnds[e] > layout.Types[e] + 1).ToList();
            var kind = random.Next(3);
            var damaged = (byte[])bson.Clone();
            string reason;
            if (kind == 0 && layout.Booleans.Count > 0)
            {
                damaged[layout.Booleans[random.Next(layout.Booleans.Count)]] = (byte)random.Next(2, 256);
                reason = "a boolean whose byte is 0x";
            }
            else if (kind == 1 && texts.Count > 0)
            {
                var (start, length) = texts[random.Next(texts.Count)];
                damaged[start + random.Next(length)] = neverUtf8[random.Next(neverUtf8.Length)];
                reason = "that is not UTF-8";
            }
            else if (kind == 2 && names.Count > 0)
            {
                var element = names[random.Next(names.Count)];
                var nameStart = layout.Types[element] + 1;
                damaged[nameStart + random.Next(layout.NameEnds[element] - nameStart)] = neverUtf8[random.Next(neverUtf8.Length)];
                reason = "its name is not UTF-8";
            }
            else
            {
                continue;
            }
            var ex = Assert.Throws<ArgumentException>(() => _store.Put("strict", DocumentContent.FromBson(damaged)));
            Assert.True(ex.Message.Contains("element '", StringComparison.Ordinal) && ex.Message.Contains(reason, StringComparison.Ordinal),
                $"case {i}: {ex.Message} for BSON {Convert.ToHexString(damaged)}");
            refused[kind]++;
        }
        Assert.Null(_store.Get("strict"));
        Assert.All(refused, count => Assert.InRange(count, 100, 2000));
    }

    private static bool Accepts(byte[] bson)
    {
        try
        {
            DocumentContent.FromBson(bson);
            return true;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }

    private static DocumentContent? TryFromJson(string json, string where)
    {
        try
        {
            var content = DocumentContent.FromJson(json);
            // The UTF-8 overload must agree with the string one.
            Assert.Equal(content.Bson.ToArray(), DocumentContent.FromJson(Encoding.UTF8.GetBytes(json)).Bson.ToArray());
            return content;
        }
        catch (ArgumentException ex)
        {
            Assert.False(string.IsNullOrWhiteSpace(ex.Message), where);
            return null;
        }
        catch (Exception ex)
        {
            throw new Xunit.Sdk.XunitException($"{where}: {ex.GetType().Name} instead of ArgumentException for {json}: {ex}");
        }
    }

    private void AssertReadsBackEqual(string json, DocumentContent content, string where)
    {
        JsonDocument original;
        try
        {
            original = JsonDocument.Parse(json, new JsonDocumentOptions { MaxDepth = 1000 });
        }
        catch (JsonException ex)
        {
            throw new Xunit.Sdk.XunitException($"{where}: accepted JSON that System.Text.Json refuses ({ex.Message}): {json}");
        }
        var readBack = _puts++ % 8 == 0 ? PutAndRead(content) : content.ToString();
        using (original)
        using (var stored = JsonDocument.Parse(readBack, new JsonDocumentOptions { MaxDepth = 1000 }))
            JsonEquality.AssertEqual(original.RootElement, stored.RootElement, $"{where}: {json}");
    }

    private string PutAndRead(DocumentContent content)
    {
        _store.Put("fuzz", content, mode: CommitMode.Lazy);
        return Encoding.UTF8.GetString(_store.Get("fuzz")!.DataJson.Span);
    }

    private static byte[] Damage(byte[] bson, Random random)
    {
        var damaged = (byte[])bson.Clone();
        for (var edits = random.Next(1, 4); edits > 0; edits--)
        {
            var at = random.Next(damaged.Length);
            damaged[at] = random.Next(3) switch
            {
                0 => (byte)random.Next(256),
                1 => 0,
                _ => (byte)(damaged[at] ^ (1 << random.Next(8))),
            };
        }
        return random.Next(4) == 0 ? damaged[..random.Next(damaged.Length)] : damaged;
    }
}

/// <summary>JSON equality as documented in docs/reliability.md: integers in 64 bits exactly, other numbers as doubles.</summary>
internal static class JsonEquality
{
    public static void AssertEqual(JsonElement expected, JsonElement actual, string where)
    {
        Assert.True(expected.ValueKind == actual.ValueKind, $"{where}: {expected.ValueKind} read back as {actual.ValueKind}");
        switch (expected.ValueKind)
        {
            case JsonValueKind.Object:
                var e = expected.EnumerateObject().ToList();
                var a = actual.EnumerateObject().ToList();
                Assert.True(e.Count == a.Count, $"{where}: {e.Count} members read back as {a.Count}");
                for (var i = 0; i < e.Count; i++)
                {
                    Assert.True(e[i].Name == a[i].Name, $"{where}: member '{e[i].Name}' read back as '{a[i].Name}'");
                    AssertEqual(e[i].Value, a[i].Value, where);
                }
                break;
            case JsonValueKind.Array:
                Assert.True(expected.GetArrayLength() == actual.GetArrayLength(), $"{where}: array length differs");
                foreach (var (x, y) in expected.EnumerateArray().Zip(actual.EnumerateArray()))
                    AssertEqual(x, y, where);
                break;
            case JsonValueKind.String:
                Assert.True(expected.GetString() == actual.GetString(), $"{where}: string differs");
                break;
            case JsonValueKind.Number when IsIntegerLiteral(expected.GetRawText()) && expected.TryGetInt64(out var integer):
                Assert.True(actual.TryGetInt64(out var got) && got == integer, $"{where}: {expected.GetRawText()} read back as {actual.GetRawText()}");
                break;
            case JsonValueKind.Number:
                Assert.True(expected.GetDouble() == actual.GetDouble(), $"{where}: {expected.GetRawText()} read back as {actual.GetRawText()}");
                break;
        }
    }

    private static bool IsIntegerLiteral(string raw) => raw.AsSpan().IndexOfAny('.', 'e', 'E') < 0;
}

/// <summary>Random JSON documents, including the awkward corners, and random damage to them.</summary>
#pragma warning disable CA5394 // test data, not security
internal sealed class RandomJson(Random random)
{
    private static readonly string[] Numbers =
    [
        "0", "-0", "1", "-1", "42", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "123456789012345678901234567890", "0.1", "1.0", "-2.5e-3", "1E2", "1e+2", "1e-400", "1e400", "-1e309",
        "4.9e-324", "1.7976931348623157e308", "0.30000000000000004", "6.66", "1e21", "-0.0",
    ];

    private static readonly string[] Escapes = ["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0041", "\\u00e9", "\\ud83d\\ude00", "\\u2028", "\\u0000", "\\ud800", "\\udc00x"];

    public string Document()
    {
        var text = new StringBuilder();
        if (random.Next(40) == 0)
            Deep(text, DocumentContent.MaxDepth - 1 + random.Next(3));
        else
            Object(text, random.Next(1, 5));
        return random.Next(5) == 0 ? $" \n{text}\t " : text.ToString();
    }

    private void Deep(StringBuilder text, int levels)
    {
        var closers = new Stack<char>();
        for (var i = 1; i < levels; i++)
        {
            var inObject = i == 1 || random.Next(2) == 0; // the root must be an object
            text.Append(inObject ? "{\"a\":" : "[");
            closers.Push(inObject ? '}' : ']');
        }
        text.Append("{}");
        while (closers.Count > 0)
            text.Append(closers.Pop());
    }

    private void Object(StringBuilder text, int depth)
    {
        text.Append('{');
        var names = new List<string>();
        for (var count = random.Next(6); count > 0; count--)
        {
            if (names.Count > 0)
                text.Append(random.Next(10) == 0 ? " , " : ",");
            var name = random.Next(40) == 0 && names.Count > 0 ? names[random.Next(names.Count)] : Text(8);
            names.Add(name);
            text.Append('"').Append(name).Append("\":");
            Value(text, depth - 1);
        }
        text.Append('}');
    }

    private void Value(StringBuilder text, int depth)
    {
        switch (random.Next(depth > 0 ? 8 : 6))
        {
            case 0: text.Append(Numbers[random.Next(Numbers.Length)]); break;
            case 1: text.Append(random.NextInt64(long.MinValue, long.MaxValue).ToString(CultureInfo.InvariantCulture)); break;
            case 2: text.Append((random.NextDouble() * Math.Pow(10, random.Next(-20, 20))).ToString("R", CultureInfo.InvariantCulture)); break;
            case 3: text.Append('"').Append(Text(20)).Append('"'); break;
            case 4: text.Append(random.Next(3) switch { 0 => "true", 1 => "false", _ => "null" }); break;
            case 5: text.Append("\"\""); break;
            case 6: Object(text, depth); break;
            default:
                text.Append('[');
                for (var count = random.Next(4); count > 0; count--)
                {
                    Value(text, depth - 1);
                    if (count > 1)
                        text.Append(',');
                }
                text.Append(']');
                break;
        }
    }

    private string Text(int maxLength)
    {
        var text = new StringBuilder();
        for (var count = random.Next(maxLength + 1); count > 0; count--)
        {
            text.Append(random.Next(12) switch
            {
                0 => Escapes[random.Next(Escapes.Length)],
                1 => char.ConvertFromUtf32(random.Next(0xA0, 0xD7FF)),
                2 => "😀",
                _ => ((char)random.Next('a', 'z' + 1)).ToString(),
            });
        }
        return text.ToString();
    }

    /// <summary>One to three edits that usually make JSON invalid: a character dropped, added or replaced.</summary>
    public static string Break(string json, Random random)
    {
        const string Noise = "{}[],:\"'\\ 0123456789.eE+-/*tfnNxa\u0000\t\n";
        var text = new StringBuilder(json);
        for (var edits = random.Next(1, 4); edits > 0 && text.Length > 0; edits--)
        {
            var at = random.Next(text.Length);
            switch (random.Next(3))
            {
                case 0: text.Remove(at, 1); break;
                case 1: text.Insert(at, Noise[random.Next(Noise.Length)]); break;
                default: text[at] = Noise[random.Next(Noise.Length)]; break;
            }
        }
        return text.ToString();
    }
}
