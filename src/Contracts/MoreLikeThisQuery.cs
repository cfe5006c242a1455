namespace RavenLite;

/// <summary>
/// Documents like a given one: the source document's full-text fields are analysed again from its JSON, its most
/// telling terms (frequent in it, not too common in the index) become a scored query, and the documents that match it
/// best come back, most similar first, without the source document itself.
/// </summary>
public sealed class MoreLikeThisQuery
{
    /// <summary>The full-text fields of the index to compare on; null or empty: every full-text field of the index.</summary>
    public IReadOnlyList<string>? Fields { get; init; }

    /// <summary>
    /// How often a term must occur in the source document to be used (default 1: the fields of a document are short,
    /// so a term seen once is already telling; Lucene's own default of 2 suits long texts).
    /// </summary>
    public int MinTermFrequency { get; init; } = 1;

    /// <summary>In how many documents of the index a term must occur to be used (default 2: one besides the source, else it finds nothing).</summary>
    public int MinDocFrequency { get; init; } = 2;

    /// <summary>At most this many terms per field, the most telling ones (default 25, as Lucene's).</summary>
    public int MaxQueryTerms { get; init; } = 25;

    /// <summary>How many matches to skip. Not negative.</summary>
    public int Start { get; init; }

    /// <summary>How many documents to return; null for the default (128); more than the maximum (1024) is clamped.</summary>
    public int? PageSize { get; init; }
}
