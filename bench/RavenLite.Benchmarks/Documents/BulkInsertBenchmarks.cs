using System.Buffers;
using BenchmarkDotNet.Attributes;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Benchmarks.Client;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Client;
using RavenLite.Database;
using RavenLite.Storage;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Documents;

/// <summary>
/// 100,000 seed carts put in batches of 1,000 (one durable transaction each) into an empty folder made fresh for
/// every iteration: into storage alone (no indexer), and into a database whose index is then waited for until it has
/// every document (the rate a user sees before queries are up to date), also over a database holding them already; and the same carts as typed entities through
/// the client's <c>store.BulkInsert()</c>, embedded and remote (an in-process server on 127.0.0.1), index caught up.
/// The pipelined rows commit every batch but the last as <see cref="CommitMode.Pipelined"/> and the last as durable:
/// the insert is acknowledged once, when that last commit returns, with every batch durable by then.
/// </summary>
[MemoryDiagnoser]
public class BulkInsertBenchmarks : IDisposable
{
    /// <summary>Documents per iteration.</summary>
    public const int Documents = 100_000;

    /// <summary>Documents per batch (transaction).</summary>
    public const int BatchSize = 1_000;

    private BatchCommand[][] _batches = [];
    private string _directory = "";
    private DocumentStore? _store;
    private DocumentDatabase? _database;
    private RavenStore? _client;
    private WebApplication? _server;
    private string[] _keys = [];
    private Cart[] _carts = [];

    [GlobalSetup]
    public void Setup()
    {
        _keys = [.. SeedDataset.CartKeys(Documents)];
        _batches = [.. _keys.Select(SeedCart.Put).Chunk(BatchSize)];
        var json = new ArrayBufferWriter<byte>();
        BsonCodec.ToJson(SeedCart.Data.Span, json);
        var seed = System.Text.Encoding.UTF8.GetString(json.WrittenSpan);
        _carts = [.. _keys.Select(_ => Newtonsoft.Json.JsonConvert.DeserializeObject<Cart>(seed)!)];
    }

    [IterationSetup(Target = nameof(ClientEmbedded))]
    public void OpenEmbeddedClient()
    {
        OpenDatabase();
        _client = RavenStore.ForDatabase(_database!, ClientServer.Conventions);
    }

    [IterationSetup(Target = nameof(ClientRemote))]
    public void OpenRemoteClient()
    {
        _directory = BenchmarkFolders.NewTemp();
        _server = BenchmarkServer.Start(_directory);
        _database = _server.Services.GetRequiredService<DocumentDatabase>();
        _client = RavenStore.ForServer(new Uri(_server.Urls.First()), ClientServer.Conventions);
    }

    [IterationSetup(Targets = [nameof(StorageOnly), nameof(StorageOnlyPipelined)])]
    public void OpenStore()
    {
        _directory = BenchmarkFolders.NewTemp();
        _store = DocumentStore.Open(new StorageOptions { DataDirectory = _directory });
    }

    [IterationSetup(Targets = [nameof(IndexedAndCaughtUp), nameof(IndexedPipelined)])]
    public void OpenDatabase()
    {
        _directory = BenchmarkFolders.NewTemp();
        _database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _directory });
    }

    [IterationSetup(Target = nameof(IndexedOverwrite))]
    public void OpenFilledDatabase()
    {
        OpenDatabase();
        foreach (var batch in _batches)
            _database!.Batch(batch);
        SeedDataset.WaitForIndex(_database!, Documents);
    }

    [IterationCleanup]
    public void Close()
    {
        _client?.Dispose();
        _store?.Dispose();
        if (_server is not null)
        {
            BenchmarkServer.Stop(_server);
        }
        else
        {
            _database?.Dispose();
        }
        (_client, _store, _database, _server) = (null, null, null, null);
        BenchmarkFolders.Delete(_directory);
    }

    [GlobalCleanup]
    public void Dispose()
    {
        Close();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "bulk insert 100,000 in batches of 1,000, storage only")]
    public long StorageOnly()
    {
        var store = _store ?? throw new InvalidOperationException("No store open.");
        foreach (var batch in _batches)
            store.Batch(batch);
        return Check(store.GetCounts().Documents);
    }

    [Benchmark(Description = "bulk insert 100,000 in batches of 1,000, index caught up")]
    public long IndexedAndCaughtUp()
    {
        var database = _database ?? throw new InvalidOperationException("No database open.");
        foreach (var batch in _batches)
            database.Batch(batch);
        SeedDataset.WaitForIndex(database, Documents);
        return Check(database.GetStatistics().Documents);
    }

    /// <summary>
    /// The same carts written again over a database holding them, index caught up: every write replaces a version the
    /// index holds, which it finds and deletes.
    /// </summary>
    [Benchmark(Description = "overwrite 100,000 in batches of 1,000, index caught up")]
    public long IndexedOverwrite() => IndexedAndCaughtUp();

    [Benchmark(Description = "bulk insert 100,000 in batches of 1,000, pipelined, storage only")]
    public long StorageOnlyPipelined()
    {
        var store = _store ?? throw new InvalidOperationException("No store open.");
        for (var i = 0; i < _batches.Length; i++)
            store.Batch(_batches[i], Pipelined(i));
        return Check(store.GetCounts().Documents);
    }

    [Benchmark(Description = "bulk insert 100,000 in batches of 1,000, pipelined, index caught up")]
    public long IndexedPipelined()
    {
        var database = _database ?? throw new InvalidOperationException("No database open.");
        for (var i = 0; i < _batches.Length; i++)
            database.Batch(_batches[i], Pipelined(i));
        SeedDataset.WaitForIndex(database, Documents);
        return Check(database.GetStatistics().Documents);
    }

    /// <summary>Every batch but the last pipelined; the last durable, which makes the whole insert durable.</summary>
    private CommitMode Pipelined(int batch) => batch == _batches.Length - 1 ? CommitMode.Durable : CommitMode.Pipelined;

    [Benchmark(Description = "client BulkInsert 100,000 carts, embedded, index caught up")]
    public long ClientEmbedded() => BulkInsertCarts();

    [Benchmark(Description = "client BulkInsert 100,000 carts, remote, index caught up")]
    public long ClientRemote() => BulkInsertCarts();

    private long BulkInsertCarts()
    {
        var client = _client ?? throw new InvalidOperationException("No client open.");
        using (var bulk = client.BulkInsert(BatchSize))
        {
            for (var i = 0; i < _carts.Length; i++)
                bulk.Store(_carts[i], _keys[i]);
        }
        SeedDataset.WaitForIndex(_database!, Documents);
        return Check(_database!.GetStatistics().Documents);
    }

    private static long Check(long count) =>
        count == Documents ? count : throw new InvalidOperationException($"Expected {Documents} documents, found {count}.");
}
