using System.Globalization;
using System.Text;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Tests.Extraction;

/// <summary>
/// <see cref="OrdinalCaseFolding"/> against the runtime's <see cref="StringComparison.OrdinalIgnoreCase"/> over every
/// code point: two fold alike exactly when that comparison calls them equal. When the runtime's Unicode data moves,
/// <see cref="Every_code_point_folds_with_the_code_points_ordinal_ignore_case_calls_equal"/> fails with the table
/// to paste into <see cref="OrdinalCaseFolding"/>.
/// </summary>
public sealed class OrdinalCaseFoldingTests
{
    [Fact]
    public void Every_code_point_folds_with_the_code_points_ordinal_ignore_case_calls_equal()
    {
        var expected = RuntimeFolding();
        var wrong = new List<string>();
        foreach (var codePoint in CodePoints())
        {
            var text = char.ConvertFromUtf32(codePoint);
            var want = char.ConvertFromUtf32(expected.GetValueOrDefault(codePoint, codePoint < 0x80 ? char.ToUpperInvariant((char)codePoint) : codePoint));
            if (OrdinalCaseFolding.Fold(text) != want)
                wrong.Add($"U+{codePoint:X4} folds to {Describe(OrdinalCaseFolding.Fold(text))}, not {Describe(want)}");
        }
        Assert.True(wrong.Count == 0, $"{wrong.Count} code points fold unlike OrdinalIgnoreCase, first: {string.Join("; ", wrong.Take(10))}.\n" +
            $"The runtime's table:\n{Table(expected)}");
    }

    [Fact]
    public void Code_points_that_fold_apart_are_never_equal_ignoring_case()
    {
        var folds = CodePoints().Select(c => OrdinalCaseFolding.Fold(char.ConvertFromUtf32(c))).Distinct().ToList();
        folds.Sort(StringComparer.OrdinalIgnoreCase);
        for (var i = 1; i < folds.Count; i++)
            Assert.False(string.Equals(folds[i - 1], folds[i], StringComparison.OrdinalIgnoreCase), $"{Describe(folds[i - 1])} and {Describe(folds[i])}");
    }

    [Theory]
    [InlineData("\u017F", "S")] // long s: ToUpperInvariant makes it S, OrdinalIgnoreCase does not
    [InlineData("\u212A", "k")] // Kelvin sign
    [InlineData("\u0131", "I")] // dotless i
    [InlineData("\u0130", "i")] // dotted capital I
    [InlineData("\U00010D70", "\U00010D50")] // Garay (Unicode 16): a pair the runtime knows, ICU 72 does not
    [InlineData("\u1F80", "\u1F88")]
    [InlineData("stra\u00DFe", "STRASSE")]
    [InlineData("\uD800x", "\uD800X")] // an unpaired surrogate is kept
    [InlineData("\uDC00", "\uDBFF")]
    public void Fold_agrees_with_ordinal_ignore_case_on_hard_pairs(string a, string b) =>
        Assert.Equal(string.Equals(a, b, StringComparison.OrdinalIgnoreCase), OrdinalCaseFolding.Fold(a) == OrdinalCaseFolding.Fold(b));

    [Fact]
    public void Random_strings_fold_alike_exactly_when_equal_ignoring_case()
    {
        // Strings from letters that have case partners (and a few without), compared against each other's case variants.
        var random = new Random(20261127);
        var letters = CodePoints().Where(c => c < 0x80 || RuntimeFolding().ContainsKey(c) || RuntimeFolding().ContainsValue(c) || c is 0x017F or 0x0131)
            .Select(char.ConvertFromUtf32).ToArray();
        var agreed = 0;
        for (var n = 0; n < 20_000; n++)
        {
            var a = string.Concat(Enumerable.Range(0, random.Next(0, 6)).Select(_ => letters[random.Next(letters.Length)]));
            var b = random.Next(3) switch
            {
                0 => a.ToUpperInvariant(),
                1 => a.ToLowerInvariant(),
                _ => string.Concat(Enumerable.Range(0, a.Length == 0 ? 0 : random.Next(1, 6)).Select(_ => letters[random.Next(letters.Length)])),
            };
            Assert.True(string.Equals(a, b, StringComparison.OrdinalIgnoreCase) == (OrdinalCaseFolding.Fold(a) == OrdinalCaseFolding.Fold(b)),
                $"{Describe(a)} and {Describe(b)}");
            Assert.Equal(a.Length, OrdinalCaseFolding.Fold(a).Length);
            agreed++;
        }
        Assert.Equal(20_000, agreed);
    }

    private static IEnumerable<int> CodePoints() =>
        Enumerable.Range(0, 0x110000).Where(c => c is < 0xD800 or > 0xDFFF);

    private static Dictionary<int, int>? s_runtime;

    /// <summary>
    /// The classes <see cref="StringComparison.OrdinalIgnoreCase"/> makes of the code points beyond ASCII (sorted with it,
    /// equal neighbours are one class), each member mapped to the class's uppercase letter, else titlecase, else lowest.
    /// </summary>
    private static Dictionary<int, int> RuntimeFolding()
    {
        if (s_runtime is not null)
            return s_runtime;
        var points = CodePoints().Where(c => c >= 0x80).ToArray();
        var texts = points.Select(char.ConvertFromUtf32).ToArray();
        var order = Enumerable.Range(0, points.Length).ToArray();
        Array.Sort(order, (a, b) => string.Compare(texts[a], texts[b], StringComparison.OrdinalIgnoreCase) is var c and not 0 ? c : points[a].CompareTo(points[b]));
        var folding = new Dictionary<int, int>();
        for (var i = 0; i < order.Length;)
        {
            var j = i + 1;
            while (j < order.Length && string.Equals(texts[order[i]], texts[order[j]], StringComparison.OrdinalIgnoreCase))
                j++;
            var members = order[i..j].Select(k => points[k]).OrderBy(Rank).ThenBy(c => c).ToList();
            foreach (var member in members.Skip(1))
                folding[member] = members[0];
            i = j;
        }
        return s_runtime = folding;
    }

    private static int Rank(int codePoint) => CharUnicodeInfo.GetUnicodeCategory(codePoint) switch
    {
        UnicodeCategory.UppercaseLetter => 0,
        UnicodeCategory.TitlecaseLetter => 1,
        _ => 2,
    };

    private static string Table(Dictionary<int, int> folding)
    {
        var sorted = folding.OrderBy(p => p.Key).ToList();
        var text = new StringBuilder();
        foreach (var (name, values) in new[] { ("Folded", sorted.Select(p => p.Key)), ("FoldedTo", sorted.Select(p => p.Value)) })
        {
            text.Append(CultureInfo.InvariantCulture, $"    private static ReadOnlySpan<int> {name} =>\n    [\n");
            foreach (var line in values.Chunk(12))
                text.Append("        ").AppendJoin(", ", line.Select(v => $"0x{v:X4}")).Append(",\n");
            text.Append("    ];\n");
        }
        return text.ToString();
    }

    private static string Describe(string text) => string.Join(" ", text.Select(c => $"U+{(int)c:X4}"));
}
