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

    /// <summary>
    /// Each value indexed by its JSON type, for queries written as C# (the LINQ provider and auto indexes): strings
    /// exactly at any length and case-insensitively, numbers as doubles and as exact decimals, ISO 8601 date-times as
    /// instants, array lengths, and null or missing values, each queryable and sortable through a suffix of the field's
    /// name (<c>Total@dec</c>; see <c>docs/indexing.md</c>). Arrays are entered wherever the path meets one. Takes no
    /// <see cref="FieldSort"/>: every kind is sortable.
    /// </summary>
    Typed = 2,

    /// <summary>
    /// <see cref="Typed"/>, and strings also analyzed as <see cref="FullText"/> under the <c>@text</c> suffix, for
    /// word searches (<c>Body@text:(quick fox)</c>).
    /// </summary>
    TypedSearch = 3,
}
