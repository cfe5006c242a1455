using RavenLite.Storage.Documents;
using System.Text.Json;
using Newtonsoft.Json.Bson;
using Newtonsoft.Json.Linq;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Caching;

/// <summary>Nothing a caller is handed can change what the cache gives the next caller.</summary>
public sealed class CacheIsolationTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [EngineTheory]
    public void Mutating_every_object_a_read_returned_leaves_the_next_read_identical_to_the_stored_document(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.PutSeedCart("carts/666");
        var stored = StoredData(store, "carts/666");

        for (var round = 0; round < 3; round++)
        {
            var doc = store.Get("carts/666")!;
            var dataBefore = doc.DataJson.ToArray();
            var metadataBefore = doc.MetadataJson.ToArray();
            _ = doc.Data;
            _ = doc.Metadata;

            var mutated = MutateEverything(doc.ToJObject());
            Assert.Equal("mutated", (string?)mutated["itemList"]![7]!["price"]); // the copy really changed
            MutateEverything(doc.MetadataToJObject());
            MutateEverything(store.Get(["carts/666"])[0]!.ToJObject());
            MutateEverything(store.GetDocuments(0, 1)[0].ToJObject());
            MutateEverything(store.GetDocumentsAfterEtag(0, 1)[0].ToJObject());

            var next = store.Get("CARTS/666")!;
            Assert.Same(doc, next); // a hit: the shared, cached instance
            Assert.Equal(dataBefore, next.DataJson.ToArray());
            Assert.Equal(metadataBefore, next.MetadataJson.ToArray());
            Assert.True(JToken.DeepEquals(stored, next.ToJObject()), "the next read's copy differs from the stored BSON");
            Assert.True(JsonElement.DeepEquals(JsonDocument.Parse(dataBefore).RootElement, next.Data));
            Assert.Equal("Item", next.Metadata.GetProperty("Raven-Entity-Name").GetString());
        }
        Assert.True(store.GetCacheStatistics().Hits > 0);
    }

    [EngineTheory]
    public void Copies_are_new_objects_every_time(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.PutSeedCart("carts/666");
        var doc = store.Get("carts/666")!;

        var first = doc.ToJObject();
        var second = doc.ToJObject();

        Assert.NotSame(first, second);
        Assert.NotSame(first["itemList"], second["itemList"]);
        Assert.NotSame(doc.MetadataToJObject(), doc.MetadataToJObject());
    }

    [EngineTheory]
    public void A_copy_keeps_date_like_strings_as_strings(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.Put("d", Json("""{"when":"2011-04-01T10:00:00Z"}"""));

        var copy = store.Get("d")!.ToJObject();

        Assert.Equal(JTokenType.String, copy["when"]!.Type);
        Assert.Equal("2011-04-01T10:00:00Z", (string?)copy["when"]);
    }

    [EngineTheory]
    public void A_copy_holds_the_values_Newtonsoft_would_parse_from_the_JSON(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.Put("v", Json("""
            {"int":42,"negative":-7,"long":9007199254740993,"big":123456789012345678901234567890,
             "double":6.66,"exponent":1.5e300,"true":true,"false":false,"null":null,"text":"caf\u00e9 \"q\"",
             "empty":{},"list":[1,"two",[3.5],{"four":null}],"dup":1}
            """));
        var doc = store.Get("v")!;

        var copy = doc.ToJObject();
        var parsed = JObject.Load(new Newtonsoft.Json.JsonTextReader(new StringReader(System.Text.Encoding.UTF8.GetString(doc.DataJson.Span)))
        {
            DateParseHandling = Newtonsoft.Json.DateParseHandling.None,
        });

        Assert.True(JToken.DeepEquals(parsed, copy), $"{parsed}\n!=\n{copy}");
        Assert.Equal(9007199254740993L, (long)copy["long"]!);
        Assert.Equal(JTokenType.Float, copy["double"]!.Type);
    }

    [EngineTheory]
    public void A_deeply_nested_document_reads_back_through_every_form(StorageEngineKind engine)
    {
        const int depth = 100; // writes accept 128 levels; readers' defaults stop at 64
        using var store = Open(engine, _dir.Path);
        store.Put("deep", Json(string.Concat(Enumerable.Repeat("{\"a\":", depth)) + "1" + new string('}', depth)));

        var doc = store.Get("deep")!;

        Assert.Equal(JsonValueKind.Object, doc.Data.GetProperty("a").ValueKind);
        Assert.NotNull(doc.ToJObject().SelectToken(string.Join('.', Enumerable.Repeat("a", depth - 1))));
        DocumentContent.FromBson(store.GetRaw("deep")!.DataBson.Span); // and what was read can be written again
    }

    private static JObject StoredData(DocumentStore store, string key)
    {
        var raw = store.GetRaw(key)!;
        using var reader = new BsonDataReader(new MemoryStream(raw.DataBson.ToArray()));
        return JObject.Load(reader);
    }

    /// <summary>Changes every value of every object and array, depth first, adds to each, and returns the root.</summary>
    private static JContainer MutateEverything(JContainer container)
    {
        switch (container)
        {
            case JObject obj:
                foreach (var property in obj.Properties().ToList())
                {
                    if (property.Value is JContainer nested)
                        MutateEverything(nested);
                    else
                        property.Value = "mutated";
                }
                obj["added"] = new JArray(1, 2, 3);
                break;
            case JArray array:
                for (var i = 0; i < array.Count; i++)
                {
                    if (array[i] is JContainer nested)
                        MutateEverything(nested);
                    else
                        array[i] = "mutated";
                }
                array.Add("added");
                break;
        }
        return container;
    }
}
