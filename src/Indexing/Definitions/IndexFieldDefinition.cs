namespace RavenLite.Indexing.Definitions;

/// <summary>One field of an index: where its values come from and how they are matched and sorted.</summary>
public sealed class IndexFieldDefinition
{
    /// <summary>The field's name as queries use it (<c>ProductId:42</c>): letters, digits, <c>_</c> and <c>.</c>.</summary>
    public required string Name { get; init; }

    /// <summary>
    /// The JSON path of the values: property names separated by dots, <c>[]</c> after a name to take every item
    /// of an array (<c>itemList[].productId</c>). See <c>docs/indexing.md</c>.
    /// </summary>
    public required string Path { get; init; }

    /// <summary>Whether <see cref="Path"/> reads the data (default) or the metadata.</summary>
    public FieldSource Source { get; init; } = FieldSource.Data;

    /// <summary>Exact (default) or full-text matching.</summary>
    public FieldAnalysis Analysis { get; init; } = FieldAnalysis.Exact;

    /// <summary>Whether results can be sorted by the field, and whether its terms are strings or numbers.</summary>
    public FieldSort Sort { get; init; } = FieldSort.None;

    /// <summary>Whether results can be sorted by this field.</summary>
    public bool IsSortable => Sort != FieldSort.None;

    /// <summary>Whether the field's terms are numbers (<see cref="FieldSort.Long"/> or <see cref="FieldSort.Double"/>).</summary>
    public bool IsNumeric => Sort is FieldSort.Long or FieldSort.Double;

    /// <inheritdoc />
    public override string ToString() => $"{Name} <- {Source}:{Path} ({Analysis}, sort {Sort})";
}
