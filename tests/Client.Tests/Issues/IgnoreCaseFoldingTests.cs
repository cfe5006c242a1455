using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// <c>Equals(v, OrdinalIgnoreCase)</c> and its <c>StartsWith</c>/<c>EndsWith</c>/<c>Contains</c> forms were answered from
/// terms upper-cased by <see cref="string.ToUpperInvariant"/>, which on Linux follows the machine's ICU: U+017F (long
/// s) matched <c>"s"</c>, which OrdinalIgnoreCase does not call equal, and ICU 72 leaves the Garay letters (Unicode 16)
/// without their partners, which the runtime's OrdinalIgnoreCase pairs. Both stores, against LINQ to Objects.
/// </summary>
public sealed class IgnoreCaseFoldingTests
{
    public sealed class Word
    {
        public string? Id { get; set; }
        public string Text { get; set; } = "";
    }

    private static readonly string[] s_texts =
        ["s", "S", "\u017F", "\u017Fun", "Sun", "sun", "\U00010D70", "\U00010D50", "x\U00010D70", "K", "\u212A", "\u0131", "I", "i", "stra\u00DFe"];

    private static readonly string[] s_arguments = ["s", "S", "\u017F", "su", "\U00010D50", "\U00010D70", "k", "\u212A", "I", "\u0131", "STRA\u00DFE", "\u00DF"];

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Ignoring_case_matches_what_OrdinalIgnoreCase_calls_equal(bool remote)
    {
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        var words = s_texts.Select(t => new Word { Text = t }).ToList();
        using (var session = fixture.Store.OpenSession())
        {
            foreach (var word in words)
                session.Store(word);
            session.SaveChanges();
        }
        var compared = 0;
        foreach (var argument in s_arguments)
        {
            foreach (var (name, predicate) in Shapes(argument))
            {
                using var session = fixture.Store.OpenSession();
                var actual = session.Query<Word>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).Where(predicate).ToList()
                    .Select(w => w.Id!).Order(StringComparer.Ordinal);
                var expected = words.AsQueryable().Where(predicate).Select(w => w.Id!).ToList().Order(StringComparer.Ordinal);
                Assert.True(expected.SequenceEqual(actual), $"{name}(\"{argument}\"): expected [{string.Join(", ", expected)}], got [{string.Join(", ", actual)}]");
                compared++;
            }
        }
        Assert.Equal(s_arguments.Length * 4, compared);
    }

    private static IEnumerable<(string, System.Linq.Expressions.Expression<Func<Word, bool>>)> Shapes(string v)
    {
        yield return ("Equals", x => x.Text.Equals(v, StringComparison.OrdinalIgnoreCase));
        yield return ("StartsWith", x => x.Text.StartsWith(v, StringComparison.OrdinalIgnoreCase));
        yield return ("EndsWith", x => x.Text.EndsWith(v, StringComparison.OrdinalIgnoreCase));
        yield return ("Contains", x => x.Text.Contains(v, StringComparison.OrdinalIgnoreCase));
    }
}
