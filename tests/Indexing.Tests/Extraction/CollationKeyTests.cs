using Lucene.Net.Util;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Tests.Extraction;

/// <summary>The collated sort keys a typed field's strings are sorted by with <c>@col</c>.</summary>
public sealed class CollationKeyTests
{
    [Fact]
    public void Collated_sort_keys_order_strings_as_the_invariant_culture_compares_them()
    {
        string[] names = ["b", "B", "a", "A", "\u00e9", "e\u0301", "f", "E", "", "a b", "ab", "a-b", "10", "9", "\u00adab", "\ud83d\ude00"];
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
}
