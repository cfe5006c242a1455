namespace RavenLite.Client.Backend;

/// <summary>A page of an index query as a backend returns it.</summary>
public sealed record QueryPage(
    string IndexName,
    IReadOnlyList<StoredDocument> Results,
    int TotalResults,
    int SkippedResults,
    bool IsStale,
    long IndexEtag,
    DateTimeOffset? IndexTimestamp,
    int PageSize,
    string? Continuation);
