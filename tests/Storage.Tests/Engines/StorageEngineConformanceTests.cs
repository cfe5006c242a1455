using System.Text;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Storage.Tests.Engines;

/// <summary>The <see cref="IStorageEngine"/> contract, run against every engine.</summary>
public sealed class StorageEngineConformanceTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    private IStorageEngine Open(StorageEngineKind engine) =>
        StorageEngineFactory.Open(new StorageOptions
        {
            DataDirectory = _dir.Path,
            Engine = engine,
            ConnectionString = StoreFactory.ConnectionStringFor(engine, _dir.Path),
        });

    private static byte[] B(string s) => Encoding.UTF8.GetBytes(s);

    private static string S(ReadOnlySpan<byte> b) => Encoding.UTF8.GetString(b);

    [EngineTheory]
    public void Put_then_get_returns_the_value_and_missing_keys_are_absent(StorageEngineKind engine)
    {
        using var store = Open(engine);
        var table = store.OpenTable("t");
        store.Write(tx => { tx.Put(table, B("a"), B("one")); return 0; });

        using var read = store.BeginRead();
        Assert.True(read.TryGet(table, B("a"), out var value));
        Assert.Equal("one", S(value));
        Assert.False(read.TryGet(table, B("b"), out _));
    }

    [EngineTheory]
    public void Cursor_walks_keys_in_byte_order_both_ways_and_seeks_to_the_first_key_not_less(StorageEngineKind engine)
    {
        using var store = Open(engine);
        var table = store.OpenTable("t");
        string[] keys = ["b", "a", "ab", "c\u00e9", "ba", "\u0001"];
        store.Write(tx => { foreach (var k in keys) tx.Put(table, B(k), B(k.ToUpperInvariant())); return 0; });

        using var read = store.BeginRead();
        using var cursor = read.OpenCursor(table);
        var forward = new List<string>();
        for (var ok = cursor.MoveFirst(); ok; ok = cursor.MoveNext())
            forward.Add(S(cursor.Key));
        Assert.Equal(keys.OrderBy(k => B(k), ByteOrder.Instance), forward);

        var backward = new List<string>();
        for (var ok = cursor.MoveLast(); ok; ok = cursor.MovePrevious())
            backward.Add(S(cursor.Key));
        Assert.Equal(Enumerable.Reverse(forward), backward);

        Assert.True(cursor.Seek(B("aa")));
        Assert.Equal("ab", S(cursor.Key));
        Assert.Equal("AB", S(cursor.Value));
        Assert.False(cursor.Seek(B("d")));
    }

    [EngineTheory]
    public void Cursor_walks_3000_keys_both_ways_and_turns_around_anywhere(StorageEngineKind engine)
    {
        // Enough keys that an engine reading windows of entries (PostgreSQL) crosses many window edges both ways.
        using var store = Open(engine);
        var table = store.OpenTable("t");
        const int count = 3000;
        static byte[] Key(int i) => B($"k{i:D5}");
        store.Write(tx => { for (var i = 0; i < count; i++) tx.Put(table, Key(i), B(i.ToString(System.Globalization.CultureInfo.InvariantCulture))); return 0; });

        using var read = store.BeginRead();
        using var cursor = read.OpenCursor(table);
        var forward = 0;
        for (var ok = cursor.MoveFirst(); ok; ok = cursor.MoveNext())
            Assert.Equal($"k{forward++:D5}", S(cursor.Key));
        Assert.Equal(count, forward);
        var backward = count;
        for (var ok = cursor.MoveLast(); ok; ok = cursor.MovePrevious())
            Assert.Equal($"k{--backward:D5}", S(cursor.Key));
        Assert.Equal(0, backward);

        // Seek to the middle, go back past where the seek's window began, then forward past where it ended.
        Assert.True(cursor.Seek(B("k01500")));
        for (var i = 1499; i >= 1400; i--)
        {
            Assert.True(cursor.MovePrevious());
            Assert.Equal($"k{i:D5}", S(cursor.Key));
            Assert.Equal(i.ToString(System.Globalization.CultureInfo.InvariantCulture), S(cursor.Value));
        }
        for (var i = 1401; i <= 1700; i++)
        {
            Assert.True(cursor.MoveNext());
            Assert.Equal($"k{i:D5}", S(cursor.Key));
        }
        Assert.True(cursor.Seek(B("k02999")));
        Assert.False(cursor.MoveNext());
    }

    [EngineTheory]
    public void An_exception_inside_a_write_leaves_nothing_behind(StorageEngineKind engine)
    {
        using var store = Open(engine);
        var table = store.OpenTable("t");
        Assert.Throws<InvalidOperationException>(() => store.Write<int>(tx =>
        {
            tx.Put(table, B("a"), B("1"));
            throw new InvalidOperationException("boom");
        }));

        using var read = store.BeginRead();
        Assert.False(read.TryGet(table, B("a"), out _));
    }

    [EngineTheory]
    public void A_read_transaction_is_a_snapshot(StorageEngineKind engine)
    {
        using var store = Open(engine);
        var table = store.OpenTable("t");
        store.Write(tx => { tx.Put(table, B("a"), B("old")); return 0; });

        using (var before = store.BeginRead())
        {
            store.Write(tx => { tx.Put(table, B("a"), B("new")); tx.Delete(table, B("zzz")); return 0; });
            Assert.True(before.TryGet(table, B("a"), out var seen));
            Assert.Equal("old", S(seen));
        }
        using var after = store.BeginRead();
        Assert.True(after.TryGet(table, B("a"), out var now));
        Assert.Equal("new", S(now));
    }

    [EngineTheory]
    public void Writes_see_their_own_changes_and_delete_reports_whether_it_removed(StorageEngineKind engine)
    {
        using var store = Open(engine);
        var table = store.OpenTable("t");
        var (seen, removed, again) = store.Write(tx =>
        {
            tx.Put(table, B("k"), B("v"));
            var found = tx.TryGet(table, B("k"), out var v) ? S(v) : null;
            return (found, tx.Delete(table, B("k")), tx.Delete(table, B("k")));
        });
        Assert.Equal("v", seen);
        Assert.True(removed);
        Assert.False(again);
    }

    [EngineTheory]
    public void Durable_and_lazy_commits_survive_reopen(StorageEngineKind engine)
    {
        using (var store = Open(engine))
        {
            var table = store.OpenTable("t");
            store.Write(tx => { tx.Put(table, B("durable"), B("1")); return 0; });
            store.Write(tx => { tx.Put(table, B("lazy"), B("2")); return 0; }, CommitMode.Lazy);
        }
        using (var reopened = Open(engine))
        {
            var table = reopened.OpenTable("t");
            using var read = reopened.BeginRead();
            Assert.True(read.TryGet(table, B("durable"), out _));
            Assert.True(read.TryGet(table, B("lazy"), out _));
        }
    }

    [EngineTheory]
    public void Pipelined_commits_closed_by_a_durable_one_and_one_left_open_survive_reopen(StorageEngineKind engine)
    {
        using (var store = Open(engine))
        {
            var table = store.OpenTable("t");
            for (var i = 0; i < 3; i++)
            {
                var n = i;
                store.Write(tx => { tx.Put(table, B($"pipelined{n}"), B("1")); return 0; }, CommitMode.Pipelined);
            }
            store.Write(tx => { tx.Put(table, B("closing"), B("2")); return 0; });
            store.Write(tx => { tx.Put(table, B("open"), B("3")); return 0; }, CommitMode.Pipelined);
        }
        using (var reopened = Open(engine))
        {
            var table = reopened.OpenTable("t");
            using var read = reopened.BeginRead();
            foreach (var key in new[] { "pipelined0", "pipelined1", "pipelined2", "closing", "open" })
                Assert.True(read.TryGet(table, B(key), out _), key);
        }
    }

    [EngineTheory]
    public void Dispose_twice_is_harmless(StorageEngineKind engine)
    {
        var store = Open(engine);
        store.Dispose();
        store.Dispose();
        Assert.Throws<ObjectDisposedException>(() => store.BeginRead());
    }

    private sealed class ByteOrder : IComparer<byte[]>
    {
        public static readonly ByteOrder Instance = new();

        public int Compare(byte[]? x, byte[]? y) => x.AsSpan().SequenceCompareTo(y);
    }
}
