namespace RavenLite;

/// <summary>
/// Which full-text fields of each query result to highlight, and how: the best fragments of the field's text with the
/// terms the query matched wrapped in <see cref="PreTag"/> and <see cref="PostTag"/>; the rest of the text is
/// HTML-escaped, so a fragment can be put into a page as it is.
/// </summary>
public sealed class HighlightOptions
{
    /// <summary>The full-text fields of the index to highlight; at least one.</summary>
    public required IReadOnlyList<string> Fields { get; init; }

    /// <summary>At most this many fragments per field and result, best first (default 3; 1 to 20).</summary>
    public int FragmentCount { get; init; } = 3;

    /// <summary>About how many characters each fragment has (default 150; 10 to 10,000).</summary>
    public int FragmentLength { get; init; } = 150;

    /// <summary>Written before each matched term (default <c>&lt;b&gt;</c>); not escaped.</summary>
    public string PreTag { get; init; } = "<b>";

    /// <summary>Written after each matched term (default <c>&lt;/b&gt;</c>); not escaped.</summary>
    public string PostTag { get; init; } = "</b>";
}
