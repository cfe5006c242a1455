using System.Text;
using Newtonsoft.Json.Linq;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Issues;

/// <summary>
/// Issue 11: writes that were accepted but could not be read back (a NUL in a property name, a JObject nested past
/// every reader's limit). Each is now refused before anything is written; data and metadata alike.
/// </summary>
public sealed class PoisonDocumentTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly DocumentStore _store;

    public PoisonDocumentTests() => _store = Open(StorageEngineKind.Lmdb, _dir.Path);

    public void Dispose()
    {
        _store.Dispose();
        _dir.Dispose();
    }

    private void AssertNothingWritten() => Assert.Equal(0, _store.GetCounts().LastEtag);

    [Fact]
    public void A_nul_in_a_property_name_given_as_json_is_refused_naming_the_property()
    {
        var ex = Assert.Throws<ArgumentException>(() => _store.Put("x", Json("""{"ok":1,"inner":{"foo\u0000bar":42}}""")));
        Assert.Contains("U+0000", ex.Message, StringComparison.Ordinal);
        Assert.Contains("foo\\u0000bar", ex.Message, StringComparison.Ordinal);
        Assert.Contains("inner", ex.Message, StringComparison.Ordinal);
        AssertNothingWritten();
    }

    [Fact]
    public void A_nul_in_a_property_name_given_as_a_JObject_is_refused()
    {
        var data = new JObject { ["a\0b"] = 1 };
        var ex = Assert.Throws<ArgumentException>(() => _store.Put("x", data));
        Assert.Contains("U+0000", ex.Message, StringComparison.Ordinal);
        AssertNothingWritten();
    }

    [Fact]
    public void A_nul_in_a_metadata_name_is_refused_too()
    {
        Assert.Throws<ArgumentException>(() => _store.Put("x", Json("{}"), Json("""{"Raven-Entity-Name":"A","b\u0000":1}""")));
        Assert.Throws<ArgumentException>(() => _store.Put("x", new JObject(), new JObject { ["m\0"] = "v" }));
        AssertNothingWritten();
    }

    [Fact]
    public void A_nul_inside_a_string_value_is_stored_and_reads_back_equal()
    {
        _store.Put("x", Json("""{"text":"a\u0000b"}"""));
        Assert.Equal("a\0b", _store.Get("x")!.Data.GetProperty("text").GetString());
    }

    [Fact]
    public void A_JObject_nested_deeper_than_the_limit_is_refused_like_the_same_json()
    {
        var deep = Nest(DocumentContent.MaxDepth + 1);
        var fromJObject = Assert.Throws<ArgumentException>(() => _store.Put("x", deep));
        Assert.Contains($"{DocumentContent.MaxDepth}", fromJObject.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => _store.Put("x", Json(deep.ToString(Newtonsoft.Json.Formatting.None))));
        Assert.Throws<ArgumentException>(() => _store.Put("x", new JObject(), deep));
        AssertNothingWritten();
    }

    [Fact]
    public void Bson_nested_deeper_than_the_limit_is_refused_like_json()
    {
        static byte[] Nest(int levels) => levels == 1 ? BsonBytes.Doc() : BsonBytes.Doc(BsonBytes.El(BsonType.Document, "a", Nest(levels - 1)));
        DocumentContent.FromBson(Nest(DocumentContent.MaxDepth));
        var ex = Assert.Throws<ArgumentException>(() => DocumentContent.FromBson(Nest(DocumentContent.MaxDepth + 1)));
        Assert.Contains($"{DocumentContent.MaxDepth}", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_JObject_at_the_depth_limit_is_stored_and_reads_back_equal()
    {
        var deep = Nest(DocumentContent.MaxDepth);
        _store.Put("x", deep);
        Assert.True(JToken.DeepEquals(deep, _store.Get("x")!.ToJObject()));
    }

    [Fact]
    public void A_JObject_with_a_lone_surrogate_or_a_non_finite_number_is_refused()
    {
        Assert.Throws<ArgumentException>(() => _store.Put("x", new JObject { ["s"] = "half\ud800" }));
        Assert.Throws<ArgumentException>(() => _store.Put("x", new JObject { ["half\udc00"] = 1 }));
        Assert.Throws<ArgumentException>(() => _store.Put("x", new JObject { ["n"] = double.NaN }));
        Assert.Throws<ArgumentException>(() => _store.Put("x", new JObject { ["n"] = float.PositiveInfinity }));
        AssertNothingWritten();
    }

    [Fact]
    public void A_JObject_big_integer_is_stored_as_the_nearest_double_not_as_bytes()
    {
        _store.Put("x", new JObject { ["big"] = new JValue(System.Numerics.BigInteger.Parse("123456789012345678901234567890", System.Globalization.CultureInfo.InvariantCulture)) });
        Assert.Equal(1.2345678901234568E+29, _store.Get("x")!.Data.GetProperty("big").GetDouble());
    }

    [Fact]
    public void A_record_whose_bson_cannot_be_read_is_reported_as_corruption_not_as_bad_input()
    {
        // A NUL-holding name written before this fix: the BSON codec cut the name at the NUL and the element
        // type of what followed became garbage.
        var poisoned = BsonBytes.Doc(BsonBytes.El(BsonType.Int64, "foo\0bar", BsonBytes.I64(42)));
        var engine = _store.Engine;
        _store.Put("x", Json("""{"foobar":42}"""));
        ReplaceData(engine, "x", poisoned);
        _store.ClearCache();

        var ex = Assert.Throws<StorageCorruptedException>(() => _store.Get("x"));
        Assert.Contains("'x'", ex.Message, StringComparison.Ordinal);
    }

    private static JObject Nest(int levels)
    {
        var root = new JObject();
        var current = root;
        for (var i = 1; i < levels; i++)
        {
            var inner = new JObject();
            current["a"] = inner;
            current = inner;
        }
        return root;
    }

    private void ReplaceData(IStorageEngine engine, string key, byte[] dataBson)
    {
        var storageKey = StorageKey.ToStorage(key);
        engine.Write(tx =>
        {
            Assert.True(tx.TryGet(_store.DocumentsTable, storageKey, out var span));
            var record = new DocumentRecord(span);
            var replaced = DocumentRecord.Build(record.Etag, record.LastModified, record.Key, record.EntityName,
                record.MetadataBson, dataBson);
            tx.Put(_store.DocumentsTable, storageKey, replaced);
            return 0;
        });
    }

    [Fact]
    public void Text_reads_back_byte_for_byte()
    {
        _store.Put("x", Json("""{"q":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}"""));
        Assert.Equal("\"\\/\b\f\n\r\té😀", _store.Get("x")!.Data.GetProperty("q").GetString());
        Assert.Equal("""{"q":"\"\\/\b\f\n\r\té\uD83D\uDE00"}""", Encoding.UTF8.GetString(_store.Get("x")!.DataJson.Span));
    }
}
