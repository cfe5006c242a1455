using BenchmarkDotNet.Attributes;
using Newtonsoft.Json.Linq;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Storage;

namespace RavenLite.Benchmarks.Features;

/// <summary>
/// Adding one to one field of the seed-sized cart, embedded: a patch (an <c>increment</c>, applied in the write
/// transaction) against load, copy for change, modify and put with the loaded etag (what a client does without
/// patches). Both commit lazily, so the fsync, the same for both, does not hide the difference.
/// </summary>
[MemoryDiagnoser]
public class PatchBenchmarks : IDisposable
{
    private const string Key = "counters/1";
    private static readonly DocumentPatch s_increment = DocumentPatch.FromOperations([PatchOperation.IncrementBy("/Count", 1)]);
    private BenchmarkDatabase _database = null!;
    private long _expected;

    [GlobalSetup]
    public void Setup()
    {
        _database = new BenchmarkDatabase(cacheEnabled: true);
        _database.Database.Batch([SeedCart.Put(Key)]);
        _database.Database.Patch(Key, DocumentPatch.FromOperations([PatchOperation.Add("/Count", 0)]));
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _database?.Dispose();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "load, modify, put with etag")]
    public long LoadModifySave()
    {
        var db = _database.Database;
        var current = db.Get(Key)!;
        var data = current.ToJObject();
        data["Count"] = data.Value<long>("Count") + 1;
        db.Put(Key, data, current.MetadataToJObject(), current.Etag, CommitMode.Lazy);
        return Check();
    }

    [Benchmark(Description = "patch (increment)")]
    public long Patch()
    {
        _database.Database.Patch(Key, s_increment, mode: CommitMode.Lazy);
        return Check();
    }

    private long Check()
    {
        _expected++;
        var count = _database.Database.Get(Key)!.Data.GetProperty("Count").GetInt64();
        return count >= _expected ? count : throw new InvalidOperationException($"Count {count} < {_expected}: an increment was lost.");
    }
}
