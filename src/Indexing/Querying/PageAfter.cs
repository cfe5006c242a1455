namespace RavenLite.Indexing.Querying;

/// <summary>
/// Where a page ended: its last hit's indexed etag (unique per document, stable across segment merges) and, for a
/// sorted query, its sort values as Lucene compares them (<c>BytesRef</c>, <c>J2N.Numerics.Int64</c> or
/// <c>J2N.Numerics.Double</c>; null for a missing value).
/// </summary>
internal sealed record PageAfter(long Etag, object?[] SortValues);
