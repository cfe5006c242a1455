namespace RavenLite;

/// <summary>
/// What <see cref="IndexQuery.Aggregate"/> asked for, over every match: numbers of a <c>@num</c> kind as doubles
/// (<see cref="Sum"/>, <see cref="Min"/>, <see cref="Max"/>), exact kinds (<c>@dec</c>, <c>@time</c> ticks,
/// <c>@count</c>) as decimals (<see cref="ExactSum"/>, <see cref="ExactMin"/>, <see cref="ExactMax"/>).
/// </summary>
public sealed class FieldAggregate
{
    /// <summary>The aggregated field with its kind, as asked.</summary>
    public required string Field { get; init; }

    /// <summary>How many matching documents have a value of that kind.</summary>
    public long Count { get; init; }

    /// <summary>The sum of a <c>@num</c> kind's values, added in index order; null for exact kinds.</summary>
    public double? Sum { get; init; }

    /// <summary>The least <c>@num</c> value; null for exact kinds or when <see cref="Count"/> is 0.</summary>
    public double? Min { get; init; }

    /// <summary>The greatest <c>@num</c> value; null for exact kinds or when <see cref="Count"/> is 0.</summary>
    public double? Max { get; init; }

    /// <summary>The exact sum of an exact kind's values; null for <c>@num</c>, or when it overflows a decimal.</summary>
    public decimal? ExactSum { get; init; }

    /// <summary>The least value of an exact kind; null for <c>@num</c> or when <see cref="Count"/> is 0.</summary>
    public decimal? ExactMin { get; init; }

    /// <summary>The greatest value of an exact kind; null for <c>@num</c> or when <see cref="Count"/> is 0.</summary>
    public decimal? ExactMax { get; init; }
}
