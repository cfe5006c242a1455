using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Tests.Extraction;

public sealed class TextAnalyzerTests
{
    private static List<(string Word, int Position)> Analyze(string text)
    {
        var words = new List<(string, int)>();
        TextAnalyzer.Analyze(text, 0, words);
        return words;
    }

    [Fact]
    public void Words_are_runs_of_letters_and_digits_lower_cased()
    {
        Assert.Equal(["quick", "brown", "fox", "6", "66", "ünïcode", "日本語"],
            Analyze("Quick BROWN-fox: 6.66 ÜNÏCODE 日本語").Select(w => w.Word));
    }

    [Fact]
    public void Stop_words_are_dropped_but_keep_their_position()
    {
        Assert.Equal([("quick", 1), ("fox", 3)], Analyze("The quick and fox"));
    }

    [Fact]
    public void Combining_marks_stay_inside_words()
    {
        Assert.Equal(["cafe\u0301"], Analyze("Cafe\u0301!").Select(w => w.Word));
    }

    [Fact]
    public void Over_long_words_are_split()
    {
        var words = Analyze(new string('x', TextAnalyzer.MaxWordLength + 10));
        Assert.Equal([TextAnalyzer.MaxWordLength, 10], words.Select(w => w.Word.Length));
    }
}
