using System.Text.Json;
using BenchmarkDotNet.Attributes;
using Newtonsoft.Json.Bson;
using Newtonsoft.Json.Linq;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Serialization;

/// <summary>
/// What one seed cart costs to turn from stored BSON into something readable, against the 2011 baseline
/// (BSON -> Newtonsoft JObject), and what copying a JObject costs against parsing it again.
/// </summary>
[MemoryDiagnoser]
public class SeedCartDeserializationBenchmarks
{
    private byte[] _dataBson = [];
    private byte[] _record = [];
    private JObject _jobject = [];
    private Document _materialized = null!;

    [GlobalSetup]
    public void Setup()
    {
        _dataBson = SeedCart.Data.ToArray();
        _record = DocumentRecord.Build(1, DateTimeOffset.UnixEpoch, SeedCart.Key, "Item", SeedCart.Metadata.Span, SeedCart.Data.Span);
        _jobject = BsonToJObject();
        _materialized = BsonToDocument();
        _ = _materialized.Data; // as a cache hit finds it after the first read
    }

    /// <summary>The 2011 pipeline: every read deserializes BSON into a JObject.</summary>
    [Benchmark(Baseline = true, Description = "BSON -> JObject (2011 baseline)")]
    public JObject BsonToJObject()
    {
        using var reader = new BsonDataReader(new MemoryStream(_dataBson, writable: false));
        return JObject.Load(reader);
    }

    /// <summary>What a cache that hands out deep clones would pay per hit.</summary>
    [Benchmark(Description = "JObject.DeepClone")]
    public JToken JObjectDeepClone() => _jobject.DeepClone();

    /// <summary>A cache miss: the stored record to a Document (UTF-8 JSON text, not yet parsed).</summary>
    [Benchmark(Description = "BSON -> Document (cold materialize)")]
    public Document BsonToDocument() => DocumentReader.Read(new DocumentRecord(_record));

    /// <summary>A cache miss followed by a read of the data: materialize, then parse the read-only view.</summary>
    [Benchmark(Description = "BSON -> Document -> Data (miss + read)")]
    public JsonValueKind BsonToDocumentAndData() => DocumentReader.Read(new DocumentRecord(_record)).Data.ValueKind;

    /// <summary>The copy-for-change path from the cached form: the shared JsonElement tree -> a new JObject.</summary>
    [Benchmark(Description = "Document.ToJObject (copy from cached parsed form)")]
    public JObject DocumentToJObject() => _materialized.ToJObject();
}
