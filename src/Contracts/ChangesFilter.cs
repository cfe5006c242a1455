namespace RavenLite;

/// <summary>
/// Which changes a changes-feed subscriber wants: documents by exact key, by key prefix or by collection (entity name),
/// all compared case-insensitively (keys and prefixes by the key rule, <see cref="DocumentKey.Fold(string)"/>); a change matching any of them passes, and with none given every document change
/// does. Index events pass when <see cref="IncludeIndexes"/> is on. Over HTTP: <c>key=</c>, <c>prefix=</c>,
/// <c>collection=</c> (each repeatable) and <c>indexes=false</c>.
/// </summary>
public sealed record ChangesFilter
{
    /// <summary>Every change, index events included.</summary>
    public static ChangesFilter All { get; } = new();

    /// <summary>Document keys to follow.</summary>
    public IReadOnlyList<string> Keys { get; init; } = [];

    /// <summary>Key prefixes to follow (<c>orders/</c>).</summary>
    public IReadOnlyList<string> Prefixes { get; init; } = [];

    /// <summary>Collections (<c>Raven-Entity-Name</c>) to follow. Deletes carry no entity name, so they never match one.</summary>
    public IReadOnlyList<string> Collections { get; init; } = [];

    /// <summary>Whether <see cref="ChangeKind.IndexCaughtUp"/> events pass. Default true.</summary>
    public bool IncludeIndexes { get; init; } = true;

    /// <summary>Whether <paramref name="change"/> passes the filter.</summary>
    public bool Matches(DatabaseChange change)
    {
        ArgumentNullException.ThrowIfNull(change);
        if (change.Kind == ChangeKind.IndexCaughtUp)
            return IncludeIndexes;
        if (Keys.Count == 0 && Prefixes.Count == 0 && Collections.Count == 0)
            return true;
        var key = change.Key ?? "";
        return Keys.Any(k => DocumentKey.SameKey(key, k))
            || Prefixes.Any(p => DocumentKey.HasPrefix(key, p))
            || (change.EntityName is { } entity && Collections.Any(c => entity.Equals(c, StringComparison.OrdinalIgnoreCase)));
    }
}
