using Lucene.Net.Util;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Tests.Extraction;

/// <summary>The collated sort keys a typed field's strings are sorted by with <c>@col</c>.</summary>
public sealed class CollationKeyTests
{
    [Fact]
    public void Collated_sort_keys_order_strings_as_the_invariant_culture_compares_them()
    {
        string[] names = ["b", "B", "a", "A", "\u00e9", "e\u0301", "f", "E", "", "a b", "ab", "a-b", "10", "9", "\u00adab", "\ud83d\ude00",
            // Keys longer than four bytes a character: made after measuring them.
            "\ufdfa", "a\ufdfa", "\ufdfa\ufdfa"];
        var keys = names.Select(name =>
        {
            var key = new BytesRef(4);
            IndexFields.SetCollationKey(key, name);
            return (Name: name, Key: key);
        }).ToList();
        var comparer = System.Globalization.CultureInfo.InvariantCulture.CompareInfo;
        foreach (var (first, firstKey) in keys)
        {
            foreach (var (second, secondKey) in keys)
                Assert.Equal(Math.Sign(comparer.Compare(first, second)), Math.Sign(firstKey.CompareTo(secondKey)));
        }
    }

    [Fact]
    public void A_key_longer_than_a_sort_value_is_cut_there_and_still_orders_by_its_start()
    {
        // U+FDFA expands to eighteen letters: 5,440 of them (16 KB of UTF-8) make a key of over 200 KB, which no doc value holds.
        var first = new BytesRef(4);
        var second = new BytesRef(4);
        IndexFields.SetCollationKey(first, "a" + new string('\ufdfa', 5_440));
        IndexFields.SetCollationKey(second, "b" + new string('\ufdfa', 5_440));

        Assert.Equal(IndexFields.MaxSortBytes, first.Length);
        Assert.Equal(IndexFields.MaxSortBytes, second.Length);
        Assert.True(first.CompareTo(second) < 0);
    }
}
