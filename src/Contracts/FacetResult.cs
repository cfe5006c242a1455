namespace RavenLite;

/// <summary>The counts of one <see cref="FacetRequest"/> over every document a query matches.</summary>
public sealed class FacetResult
{
    /// <summary>The facet as asked (<see cref="FacetRequest.ToString"/>), so several facets of one field stay apart.</summary>
    public required string Facet { get; init; }

    /// <summary>The field and kind counted (<see cref="FacetRequest.Field"/>).</summary>
    public required string Field { get; init; }

    /// <summary>
    /// A value facet: each value returned (after order and top) with how many matches have it; a range facet: each
    /// range in the order asked, named as written (<c>[0 TO 100}</c>), with how many matches have a value in it.
    /// </summary>
    public required IReadOnlyList<FacetValue> Values { get; init; }

    /// <summary>How many distinct values the top left out (value facets; 0 for ranges).</summary>
    public int RemainingValues { get; init; }

    /// <summary>The document counts of the values the top left out, added up (value facets; 0 for ranges).</summary>
    public long RemainingCount { get; init; }

    /// <summary>How many matches have no value of the field's kind.</summary>
    public long Missing { get; init; }
}

/// <summary>One value (or range) of a facet and how many matching documents have it.</summary>
public sealed class FacetValue
{
    /// <summary>
    /// The value as text: strings as they are, numbers in invariant round-trip form (<c>12.5</c>), instants as ISO 8601
    /// UTC (<c>2020-01-02T03:04:05.0000000Z</c>), array lengths as integers; a range as written (<c>[0 TO 100}</c>).
    /// </summary>
    public required string Value { get; init; }

    /// <summary>How many matching documents have the value (each document once, however many times it holds it).</summary>
    public long Count { get; init; }
}
