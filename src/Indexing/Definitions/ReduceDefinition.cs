namespace RavenLite.Indexing.Definitions;

/// <summary>
/// The reduce of a map/reduce index: the mapped fields whose values form a group, and the aggregates kept per group.
/// The index then holds one result per group (its keys and aggregates), kept up to date as documents change.
/// </summary>
/// <example>
/// <code>
/// "Reduce": {"GroupBy": ["Customer"],
///            "Aggregates": [{"Name": "Orders", "Function": "Count"},
///                           {"Name": "Total", "Function": "Sum", "Field": "Price"}]}
/// </code>
/// </example>
public sealed class ReduceDefinition
{
    /// <summary>Names of the mapped fields (<see cref="IndexDefinition.Fields"/>) whose values form a group; at least one.</summary>
    public required IReadOnlyList<string> GroupBy { get; init; }

    /// <summary>The aggregates computed per group; at least one.</summary>
    public required IReadOnlyList<AggregateDefinition> Aggregates { get; init; }
}

/// <summary>One aggregate of a <see cref="ReduceDefinition"/>: a name for the result field, a function, and its input.</summary>
public sealed class AggregateDefinition
{
    /// <summary>The result field's name (letters, digits and <c>_</c>), distinct from the group keys and other aggregates.</summary>
    public required string Name { get; init; }

    /// <summary>What is computed.</summary>
    public required ReduceFunction Function { get; init; }

    /// <summary>
    /// The mapped field aggregated: required for every function but <see cref="ReduceFunction.Count"/>, which takes
    /// none; it must be numeric (<see cref="FieldSort.Long"/> or <see cref="FieldSort.Double"/>).
    /// </summary>
    public string? Field { get; init; }
}

/// <summary>The aggregate functions of a map/reduce index.</summary>
public enum ReduceFunction
{
    /// <summary>How many map entries the group has.</summary>
    Count = 0,

    /// <summary>The sum of the field's values (exact, in decimal arithmetic).</summary>
    Sum = 1,

    /// <summary>The smallest of the field's values.</summary>
    Min = 2,

    /// <summary>The largest of the field's values.</summary>
    Max = 3,

    /// <summary>The sum of the field's values divided by how many there are.</summary>
    Average = 4,
}
