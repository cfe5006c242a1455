namespace RavenLite;

/// <summary>
/// Document key identity: two keys are equal when their folds (<see cref="DocumentKey.Fold(string)"/>) are, the rule
/// storage and the indexes find documents by. Use it for every map, set or comparison of document keys or key
/// prefixes; <see cref="StringComparer.OrdinalIgnoreCase"/> folds differently (upper-case based), so it would call
/// one stored document two keys (<c>"\u212A-1"</c> and <c>"k-1"</c>) or two stored documents one (<c>"\u0131-1"</c>
/// and <c>"i-1"</c>).
/// </summary>
public sealed class DocumentKeyComparer : IEqualityComparer<string?>
{
    private DocumentKeyComparer()
    {
    }

    /// <summary>The comparer.</summary>
    public static DocumentKeyComparer Instance { get; } = new();

    /// <summary>Whether <paramref name="x"/> and <paramref name="y"/> name the same document (two nulls do).</summary>
    public bool Equals(string? x, string? y) =>
        ReferenceEquals(x, y) || (x is not null && y is not null && KeyCaseFolding.Equals(x, y));

    /// <summary>A hash of <paramref name="obj"/>'s fold: equal for keys that are <see cref="Equals(string?, string?)"/>.</summary>
    public int GetHashCode(string? obj) => obj is null ? 0 : KeyCaseFolding.GetHashCode(obj);

}
