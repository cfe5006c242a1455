namespace RavenLite.Indexing.Definitions;

/// <summary>How a field's values become searchable terms.</summary>
public enum FieldAnalysis
{
    /// <summary>Each value is one term, exactly as it is (case-sensitive): the whole value must match.</summary>
    Exact = 0,

    /// <summary>
    /// Full-text: values are split into words (runs of Unicode letters and digits), lower-cased (invariant
    /// culture) and English stop words are dropped, like Lucene's <c>StandardAnalyzer</c> defaults. Word
    /// positions are kept, so quoted phrases match words in order.
    /// </summary>
    FullText = 1,
}
