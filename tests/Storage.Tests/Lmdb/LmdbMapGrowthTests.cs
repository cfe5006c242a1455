using System.Text;
using RavenLite.Storage.Lmdb;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Storage.Tests.Lmdb;

public sealed class LmdbMapGrowthTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void A_write_that_fills_the_map_grows_it_and_keeps_every_value()
    {
        const long oneMiB = 1024 * 1024;
        using var engine = (LmdbStorageEngine)StorageEngineFactory.Open(
            new StorageOptions { DataDirectory = _dir.Path, MapSize = oneMiB });
        var table = engine.OpenTable("t");
        var value = new byte[64 * 1024];
        for (var i = 0; i < 64; i++)
        {
            var n = i;
            value[0] = (byte)n;
            engine.Write(tx => { tx.Put(table, Encoding.UTF8.GetBytes($"k{n:D3}"), value); return 0; });
        }

        Assert.True(engine.MapSize > oneMiB, $"map size stayed at {engine.MapSize}");
        using var read = engine.BeginRead();
        for (var i = 0; i < 64; i++)
        {
            Assert.True(read.TryGet(table, Encoding.UTF8.GetBytes($"k{i:D3}"), out var stored));
            Assert.Equal(64 * 1024, stored.Length);
            Assert.Equal((byte)i, stored[0]);
        }
    }

    [Fact]
    public void A_single_transaction_larger_than_the_map_is_retried_after_growing()
    {
        using var engine = StorageEngineFactory.Open(new StorageOptions { DataDirectory = _dir.Path, MapSize = 1024 * 1024 });
        var table = engine.OpenTable("t");
        var runs = 0;
        engine.Write(tx =>
        {
            runs++;
            for (var i = 0; i < 100; i++)
                tx.Put(table, Encoding.UTF8.GetBytes($"k{i:D3}"), new byte[32 * 1024]);
            return 0;
        });

        Assert.True(runs > 1, "the write should have needed a larger map");
        using var read = engine.BeginRead();
        Assert.True(read.TryGet(table, "k099"u8, out _));
    }

    [Fact]
    public void A_copy_of_a_map_more_than_half_used_grows_the_map_first()
    {
        const long oneMiB = 1024 * 1024;
        using var engine = new LmdbStorageEngine(_dir.Path, oneMiB);
        var table = engine.OpenTable("t");
        for (var i = 0; i < 10; i++)
        {
            var n = i;
            engine.Write(tx => { tx.Put(table, Encoding.UTF8.GetBytes($"k{n}"), new byte[64 * 1024]); return 0; });
        }
        Assert.Equal(oneMiB, engine.MapSize);
        var copy = Directory.CreateDirectory(Path.Combine(_dir.Path, "copy")).FullName;

        engine.CopyTo(copy);

        Assert.Equal(2 * oneMiB, engine.MapSize);
        Assert.True(File.Exists(Path.Combine(copy, "data.mdb")));
    }
}
