using System.Globalization;
using System.Text;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// The full-text analyzer: words are maximal runs of Unicode letters and digits (with the combining marks
/// inside them), lower-cased with the invariant culture; English stop words are dropped but keep their
/// position, so phrases stay in step. Words longer than <see cref="MaxWordLength"/> are split there.
/// </summary>
internal static class TextAnalyzer
{
    /// <summary>As Lucene's StandardTokenizer default.</summary>
    public const int MaxWordLength = 255;

    /// <summary>
    /// Positions skipped between the values of a multi-valued field, so a phrase never matches across two
    /// array items.
    /// </summary>
    public const int ValueGap = 100;

    /// <summary>Analyzes <paramref name="text"/>, numbering words from <paramref name="position"/>.</summary>
    /// <returns>The position after the last word (stop words included).</returns>
    public static int Analyze(string text, int position, List<(string Word, int Position)> words)
    {
        var word = new StringBuilder();
        foreach (var rune in text.EnumerateRunes())
        {
            if (IsWordRune(rune, word.Length > 0))
            {
                if (word.Length + rune.Utf16SequenceLength > MaxWordLength)
                    position = Emit(word, position, words);
                AppendLower(word, rune);
            }
            else if (word.Length > 0)
            {
                position = Emit(word, position, words);
            }
        }
        return word.Length > 0 ? Emit(word, position, words) : position;
    }

    private static bool IsWordRune(Rune rune, bool inWord)
    {
        if (Rune.IsLetterOrDigit(rune))
            return true;
        return inWord && Rune.GetUnicodeCategory(rune) is UnicodeCategory.NonSpacingMark
            or UnicodeCategory.SpacingCombiningMark or UnicodeCategory.EnclosingMark;
    }

    private static void AppendLower(StringBuilder word, Rune rune)
    {
        Span<char> chars = stackalloc char[2];
        var length = Rune.ToLowerInvariant(rune).EncodeToUtf16(chars);
        word.Append(chars[..length]);
    }

    private static int Emit(StringBuilder word, int position, List<(string, int)> words)
    {
        var text = word.ToString();
        word.Clear();
        if (!EnglishStopWords.Contains(text))
            words.Add((text, position));
        return position + 1;
    }
}
