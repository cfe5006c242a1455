using Newtonsoft.Json.Linq;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Patching;

public sealed class DocumentPatchTests : IDisposable
{
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));
    private readonly DocumentDatabase _db;

    public DocumentPatchTests() => _db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir });

    public void Dispose()
    {
        _db.Dispose();
        if (Directory.Exists(_dir))
            Directory.Delete(_dir, recursive: true);
    }

    private long PutOrder() => _db.Put("orders/1",
        DocumentContent.FromJson("""{"Status":"open","Total":10,"Lines":[{"Sku":"a"}],"When":"2024-01-02T03:04:05Z"}"""),
        DocumentContent.FromJson("""{"Raven-Entity-Name":"Order"}""")).Etag;

    private static JObject Json(string json) =>
        JObject.Load(new Newtonsoft.Json.JsonTextReader(new StringReader(json)) { DateParseHandling = Newtonsoft.Json.DateParseHandling.None });

    [Fact]
    public void Every_rfc_6902_operation_applies_and_metadata_is_kept()
    {
        PutOrder();
        var etag = _db.Patch("orders/1", DocumentPatch.Parse("""
            [{"op":"test","path":"/Status","value":"open"},
             {"op":"replace","path":"/Status","value":"paid"},
             {"op":"add","path":"/Lines/-","value":{"Sku":"b"}},
             {"op":"copy","from":"/Total","path":"/Paid"},
             {"op":"move","from":"/Lines/0","path":"/First"},
             {"op":"remove","path":"/Total"}]
            """));

        var document = _db.Get("orders/1")!;
        Assert.Equal(document.Etag, etag);
        Assert.True(JToken.DeepEquals(
            Json("""{"Status":"paid","Lines":[{"Sku":"b"}],"When":"2024-01-02T03:04:05Z","Paid":10,"First":{"Sku":"a"}}"""),
            document.ToJObject()));
        Assert.Equal("Order", document.EntityName);
    }

    [Fact]
    public void Failing_test_throws_PatchException_and_writes_nothing()
    {
        var etag = PutOrder();
        var ex = Assert.Throws<PatchException>(() => _db.Patch("orders/1", DocumentPatch.Parse(
            """[{"op":"replace","path":"/Total","value":99},{"op":"test","path":"/Status","value":"closed"}]""")));

        Assert.True(ex.TestFailed);
        Assert.Equal(etag, _db.Get("orders/1")!.Etag);
        Assert.Equal(10, _db.Get("orders/1")!.Data.GetProperty("Total").GetInt32());
    }

    [Theory]
    [InlineData("""[{"op":"replace","path":"/Missing/Deep","value":1}]""")]
    [InlineData("""[{"op":"remove","path":"/Nope"}]""")]
    [InlineData("""[{"op":"add","path":"/Lines/7","value":1}]""")]
    [InlineData("""[{"op":"increment","path":"/Status","value":1}]""")]
    [InlineData("""[{"op":"move","from":"/Lines","path":"/Lines/0/x"}]""")]
    [InlineData("""[{"op":"copy","from":"/Nope","path":"/x"}]""")]
    [InlineData("""[{"op":"replace","path":"/Lines/abc","value":1}]""")]
    [InlineData("""[{"op":"add","path":"/Lines/-1","value":1}]""")]
    [InlineData("""[{"op":"add","path":"/Status/x","value":1}]""")]
    [InlineData("""[{"op":"increment","path":"/Lines/0","value":1}]""")]
    [InlineData("""[{"op":"increment","path":"/Lines/9/x","value":1}]""")]
    [InlineData("""[{"op":"increment","path":"/Total","value":1e308},{"op":"increment","path":"/Total","value":1e308}]""")]
    [InlineData("""[{"op":"increment","path":"/Total","value":9223372036854775807}]""")]
    public void Bad_path_throws_PatchException_and_writes_nothing(string patch)
    {
        var etag = PutOrder();
        var ex = Assert.Throws<PatchException>(() => _db.Patch("orders/1", DocumentPatch.Parse(patch)));

        Assert.False(ex.TestFailed);
        Assert.Equal(etag, _db.LastEtag);
        Assert.Equal(etag, _db.Get("orders/1")!.Etag);
    }

    [Theory]
    [InlineData("""{"op":"add"}""")]
    [InlineData("""[{"op":"frobnicate","path":"/a"}]""")]
    [InlineData("""[{"op":"add","path":"a","value":1}]""")]
    [InlineData("""[{"op":"add","path":"/a"}]""")]
    [InlineData("""[{"op":"move","path":"/a"}]""")]
    [InlineData("""[{"op":"increment","path":"/a","value":"x"}]""")]
    [InlineData("""[]""")]
    [InlineData("""[{"op":"replace","path":"","value":[1,2]}]""")]
    [InlineData("""[{"op":"add","path":"","value":"text"}]""")]
    [InlineData("""[{"op":"copy","from":"","path":"/a"}]""")]
    [InlineData("""[{"op":"add","path":"/a","value":1}] x""")]
    public void Malformed_patch_is_an_ArgumentException(string patch) =>
        Assert.ThrowsAny<ArgumentException>(() => DocumentPatch.Parse(patch));

    [Fact]
    public void Expected_etag_mismatch_throws_ConcurrencyException_and_writes_nothing()
    {
        var etag = PutOrder();
        Assert.Throws<ConcurrencyException>(() => _db.Patch("orders/1",
            DocumentPatch.FromOperations([PatchOperation.Replace("/Status", "x")]), expectedEtag: etag + 5));
        Assert.Equal("open", _db.Get("orders/1")!.Data.GetProperty("Status").GetString());

        Assert.NotNull(_db.Patch("orders/1", DocumentPatch.FromOperations([PatchOperation.Replace("/Status", "x")]), expectedEtag: etag));
    }

    [Fact]
    public void Patch_of_a_missing_document_returns_null_and_writes_nothing()
    {
        Assert.Null(_db.Patch("orders/404", DocumentPatch.FromOperations([PatchOperation.Add("/a", 1)])));
        Assert.Equal(0, _db.LastEtag);
    }

    [Fact]
    public void Increment_adds_integers_and_floats_and_creates_a_missing_member()
    {
        PutOrder();
        _db.Patch("orders/1", DocumentPatch.Parse(
            """[{"op":"increment","path":"/Total","value":5},{"op":"increment","path":"/Views","value":1},{"op":"increment","path":"/Total","value":0.5}]"""));

        var data = _db.Get("orders/1")!.Data;
        Assert.Equal(15.5, data.GetProperty("Total").GetDouble());
        Assert.Equal(1, data.GetProperty("Views").GetInt64());
    }

    [Fact]
    public async Task Concurrent_increments_from_8_writers_lose_none()
    {
        _db.Put("counters/1", JObject.Parse("""{"Count":0}"""));
        var increment = DocumentPatch.FromOperations([PatchOperation.IncrementBy("/Count", 1)]);
        await Task.WhenAll(Enumerable.Range(0, 8).Select(_ => Task.Run(() =>
        {
            for (var i = 0; i < 250; i++)
                _db.Patch("counters/1", increment);
        })));

        Assert.Equal(2000, _db.Get("counters/1")!.Data.GetProperty("Count").GetInt64());
    }

    [Fact]
    public void Batch_with_a_failing_patch_writes_none_of_its_commands_and_names_the_command()
    {
        var etag = PutOrder();
        var ex = Assert.Throws<PatchException>(() => _db.Batch([
            BatchCommand.Put("orders/2", JObject.Parse("{}")),
            BatchCommand.Patch("orders/1", DocumentPatch.Parse("""[{"op":"test","path":"/Status","value":"closed"}]""")),
        ]));

        Assert.StartsWith("Batch command 1:", ex.Message, StringComparison.Ordinal);
        Assert.Null(_db.Get("orders/2"));
        Assert.Equal(etag, _db.LastEtag);
    }

    [Fact]
    public void Batch_patch_sees_the_put_before_it_in_the_same_batch()
    {
        var results = _db.Batch([
            BatchCommand.Put("orders/3", JObject.Parse("""{"Total":1}""")),
            BatchCommand.Patch("orders/3", DocumentPatch.FromOperations([PatchOperation.IncrementBy("/Total", 2)])),
        ]);

        Assert.Equal(results[1].Etag, _db.Get("orders/3")!.Etag);
        Assert.Equal(3, _db.Get("orders/3")!.Data.GetProperty("Total").GetInt64());
    }
}
