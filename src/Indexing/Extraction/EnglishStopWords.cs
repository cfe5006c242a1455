namespace RavenLite.Indexing.Extraction;

/// <summary>
/// The English stop words full-text fields drop: the same 33 words Lucene's <c>StandardAnalyzer</c> drops by
/// default, so queries written for Lucene behave the same.
/// </summary>
internal static class EnglishStopWords
{
    private static readonly HashSet<string> s_words = new(StringComparer.Ordinal)
    {
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
        "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they",
        "this", "to", "was", "will", "with",
    };

    /// <summary>Whether the lower-cased word is a stop word.</summary>
    public static bool Contains(string word) => s_words.Contains(word);
}
