using System.Reflection;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using Xunit.Abstractions;

namespace RavenLite.Storage.Tests.Issues;

/// <summary>
/// Storage folded keys with <see cref="string.ToLowerInvariant()"/>, which follows the machine's ICU (ICU 72 on Debian
/// 12) or, under invariant globalization, the runtime's Unicode 16 data: a database written in one mode did not find
/// keys holding, e.g., a Garay capital (U+10D50..U+10D65, which ICU 72 leaves and the runtime lowers) in the other.
/// Keys now fold through one frozen table (<see cref="DocumentKey.Fold(string)"/>), ICU 72's mapping, in every process.
/// </summary>
public sealed class KeyCaseFoldingTests(ITestOutputHelper output) : IDisposable
{
    private const string GarayKey = "garay/\U00010D50\U00010D51-1";
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void The_table_is_ICU_72_lower_casing_of_every_code_point()
    {
        var icu = IcuVersion();
        if (icu is not { Major: 72 })
        {
            // Only ICU 72 produced the table; another ICU (or none) lowers some code points differently, which is the point.
            output.WriteLine($"Compared nothing: the table is ICU 72's mapping and this process runs {(icu is null ? "without ICU (invariant globalization) or with an ICU it cannot name" : $"ICU {icu}")}.");
            return;
        }
        var differences = new List<string>();
        var changed = 0;
        foreach (var text in EveryCodePoint())
        {
            var expected = text.ToLowerInvariant();
            var folded = DocumentKey.Fold(text);
            if (folded != expected)
                differences.Add($"U+{char.ConvertToUtf32(text, 0):X4}: ICU lowers to U+{char.ConvertToUtf32(expected, 0):X4}, the table to U+{char.ConvertToUtf32(folded, 0):X4}");
            if (folded != text)
                changed++;
        }
        Assert.True(differences.Count == 0, string.Join('\n', differences.Take(50)));
        Assert.Equal(1432, changed);
    }

    [Fact]
    public void Folding_is_per_code_point_idempotent_and_keeps_every_char_in_place()
    {
        var all = string.Concat(EveryCodePoint());
        var folded = DocumentKey.Fold(all);

        Assert.Equal(string.Concat(EveryCodePoint().Select(DocumentKey.Fold)), folded);
        Assert.Equal(folded, DocumentKey.Fold(folded));
        Assert.Equal(all.Length, folded.Length);
        for (var i = 0; i < all.Length; i++)
            Assert.True(char.IsSurrogate(all[i]) == char.IsSurrogate(folded[i]), $"The fold moved a surrogate at {i}.");
    }

    [Fact]
    public void ASCII_folds_only_A_to_Z_and_only_to_a_to_z()
    {
        for (var c = (char)0; c < 0x80; c++)
            Assert.Equal(c is >= 'A' and <= 'Z' ? (char)(c + 32) : c, DocumentKey.Fold(c.ToString())[0]);
        // And nothing outside ASCII folds into it: U+212A KELVIN SIGN is the one exception ICU 72 makes, to k.
        var intoAscii = EveryCodePoint().Where(s => s[0] >= 0x80 && DocumentKey.Fold(s)[0] < 0x80).ToList();
        Assert.Equal(["\u212A"], intoAscii);
    }

    [Fact]
    public void Keys_with_the_same_fold_are_equal_and_hash_alike_whether_or_not_they_are_ASCII()
    {
        var comparer = DocumentKeyComparer.Instance;
        foreach (var letter in EveryCodePoint())
        {
            // In a key of mixed case around it, so the ASCII fast paths meet the code point's own fold.
            var key = "Carts/" + letter + "-X";
            var folded = DocumentKey.Fold(key);
            Assert.True(comparer.Equals(key, folded), key);
            Assert.Equal(comparer.GetHashCode(folded), comparer.GetHashCode(key));
        }
    }

    [Fact]
    public void Fold_of_a_span_writes_what_fold_of_the_string_returns()
    {
        const string key = "Orders/\u212A\U00010400\u0130\u03A3";
        var destination = new char[key.Length];

        Assert.Equal(key.Length, DocumentKey.Fold(key, destination));
        Assert.Equal(DocumentKey.Fold(key), new string(destination));
        Assert.Equal("orders/k\U00010428\u0130\u03C3", new string(destination));
        Assert.Throws<ArgumentException>(() => DocumentKey.Fold(key, new char[key.Length - 1]));
    }

    [Fact]
    public void A_key_written_with_ICU_is_found_by_a_process_without_it()
    {
        using (var store = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path))
            store.Put(GarayKey, DocumentContent.FromJson("{}"));

        Assert.Equal($"FOUND {GarayKey}", ChildWriter.RunWithInvariantGlobalization(_dir.Path, "get", GarayKey));
        Assert.Equal($"FOUND {GarayKey}", ChildWriter.RunWithInvariantGlobalization(_dir.Path, "get", GarayKey.ToUpperInvariant()));
    }

    [Fact]
    public void A_key_written_without_ICU_is_found_by_a_process_with_it()
    {
        Assert.Equal("PUT", ChildWriter.RunWithInvariantGlobalization(_dir.Path, "put", GarayKey));

        using var store = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        Assert.Equal(GarayKey, store.Get(GarayKey)?.Key);
        // Folding is by the frozen table, so the Garay small letters are another key in both processes.
        Assert.Null(store.Get("garay/\U00010D70\U00010D71-1"));
    }

    [EngineTheory]
    public void Each_engine_finds_a_document_by_any_key_with_the_same_fold(StorageEngineKind engine)
    {
        using var store = StoreFactory.Open(engine, _dir.Path);
        string[] keys = ["\u212A-1", "\u0131-1", "\u03C2-1", "\U00010D50-1", "\u1E9E-1"];
        foreach (var key in keys)
            store.Put(key, DocumentContent.FromJson("{}"));

        Assert.Equal("\u212A-1", store.Get("k-1")?.Key);
        Assert.Equal("\u212A-1", store.Get("K-1")?.Key);
        Assert.Equal("\u1E9E-1", store.Get("\u00DF-1")?.Key);
        Assert.Null(store.Get("i-1"));
        Assert.Null(store.Get("\u03C3-1"));
        Assert.Null(store.Get("\U00010D70-1"));
        Assert.Equal(keys, keys.Select(k => store.Get(DocumentKey.Fold(k))?.Key));
    }

    private static IEnumerable<string> EveryCodePoint()
    {
        for (var cp = 0; cp <= 0x10FFFF; cp++)
        {
            if (cp is < 0xD800 or > 0xDFFF)
                yield return char.ConvertFromUtf32(cp);
        }
    }

    /// <summary>
    /// The ICU version the runtime loaded, from its internal Interop.Globalization.GetICUVersion (major &lt;&lt; 24 | minor
    /// &lt;&lt; 16): there is no public API for it. Null without ICU, or when the runtime no longer has that method.
    /// </summary>
    private static Version? IcuVersion()
    {
        var method = typeof(object).Assembly.GetType("Interop+Globalization")
            ?.GetMethod("GetICUVersion", BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic, Type.EmptyTypes);
        if (method?.Invoke(null, null) is not int version || version == 0)
            return null;
        return new Version(version >>> 24, (version >> 16) & 0xFF);
    }
}
