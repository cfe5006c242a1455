using BenchmarkDotNet.Attributes;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Client;

namespace RavenLite.Benchmarks.Client;

/// <summary>
/// One seed cart read as a <see cref="Cart"/>: a typed <c>Load&lt;Cart&gt;</c> in a new session (warm cache), embedded
/// and remote, next to the document-level <c>DocumentDatabase.Get</c> (warm) and the two parse floors: Newtonsoft
/// reading the cart into a <see cref="Cart"/> from its BSON (the floor the issue names) and from the cache's UTF-8
/// JSON (what a warm typed load has to do at least; the aim is within 1.5x of it).
/// </summary>
[MemoryDiagnoser]
public class ClientLoadBenchmarks : IDisposable
{
    private readonly JsonSerializer _serializer = JsonSerializer.Create(ClientServer.Conventions.SerializerSettings);
    private BenchmarkDatabase _database = null!;
    private RavenStore _embedded = null!;
    private ClientServer _server = null!;
    private byte[] _bson = null!;
    private byte[] _json = null!;

    [GlobalSetup]
    public void Setup()
    {
        _database = new BenchmarkDatabase(cacheEnabled: true);
        SeedDataset.Load(_database.Database, carts: 1, others: 0);
        _embedded = RavenStore.ForDatabase(_database.Database, ClientServer.Conventions);
        _server = new ClientServer(cacheEnabled: true, carts: 1, others: 0);
        _bson = SeedCart.Data.ToArray();
        _json = _database.Database.Get(Key)!.DataJson.ToArray();
        if (DatabaseGet() <= 0 || LoadEmbedded() != SeedCart.CartId || LoadRemote() != SeedCart.CartId
            || FromBson() != SeedCart.CartId || FromJson() != SeedCart.CartId)
            throw new InvalidOperationException("A benchmark does not read the seed cart.");
    }

    private static string Key => "carts/0";

    [GlobalCleanup]
    public void Dispose()
    {
        _embedded?.Dispose();
        _server?.Dispose();
        _database?.Dispose();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "floor: BSON -> Cart (Newtonsoft)")]
    public long FromBson()
    {
        using var reader = new BsonDataReader(new MemoryStream(_bson, writable: false));
        return _serializer.Deserialize<Cart>(reader)!.CartId;
    }

    [Benchmark(Description = "floor: UTF-8 JSON -> Cart (Newtonsoft)")]
    public long FromJson()
    {
        using var text = new StreamReader(new MemoryStream(_json, writable: false));
        using var reader = new JsonTextReader(text);
        return _serializer.Deserialize<Cart>(reader)!.CartId;
    }

    [Benchmark(Description = "DocumentDatabase.Get, warm")]
    public long DatabaseGet() => _database.Database.Get(Key)!.Etag;

    [Benchmark(Description = "Load<Cart>, new session, warm")]
    public long LoadEmbedded()
    {
        using var session = _embedded.OpenSession();
        return session.Load<Cart>(Key)!.CartId;
    }

    [Benchmark(Description = "remote Load<Cart>, new session, warm")]
    public long LoadRemote()
    {
        using var session = _server.Store.OpenSession();
        return session.Load<Cart>(Key)!.CartId;
    }
}
