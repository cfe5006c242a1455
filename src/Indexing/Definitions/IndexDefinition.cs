namespace RavenLite.Indexing.Definitions;

/// <summary>
/// What an index holds: its name, optionally the one entity name (collection) it covers, and its fields.
/// Plain JSON in and out (<see cref="FromJson"/>, <see cref="ToJson()"/>), so the embedded API and HTTP share it.
/// </summary>
/// <example>
/// <code>
/// {"Name": "Carts/ByProduct", "EntityName": "Item",
///  "Fields": [{"Name": "ProductId", "Path": "itemList[].productId"},
///             {"Name": "Price", "Path": "itemList[].price", "Sort": "Double"},
///             {"Name": "Text", "Path": "otherStuff", "Analysis": "FullText"}]}
/// </code>
/// </example>
public sealed partial class IndexDefinition
{
    /// <summary>
    /// The index's name; compared case-insensitively. Names starting with <c>Raven/</c> are reserved for
    /// built-in indexes. See <see cref="IndexName"/> for the rules.
    /// </summary>
    public required string Name { get; init; }

    /// <summary>
    /// When set, only documents whose metadata <c>Raven-Entity-Name</c> equals this (case-sensitively) are
    /// indexed; when null, every document is.
    /// </summary>
    public string? EntityName { get; init; }

    /// <summary>The fields; at least one, at most <see cref="MaxFields"/>.</summary>
    public required IReadOnlyList<IndexFieldDefinition> Fields { get; init; }

    /// <summary>
    /// When set, this is a map/reduce index: documents are mapped to entries (one per item of the array the reduce's
    /// fields go through, or one per document), and the index holds one result per group instead of one entry per
    /// document. See <see cref="ReduceDefinition"/>.
    /// </summary>
    public ReduceDefinition? Reduce { get; init; }

    /// <summary>The most fields an index may have.</summary>
    public const int MaxFields = 64;

    /// <summary>Finds a field by name (case-sensitive, as in queries); null when there is none.</summary>
    public IndexFieldDefinition? FindField(string name)
    {
        foreach (var field in Fields)
        {
            if (string.Equals(field.Name, name, StringComparison.Ordinal))
                return field;
        }
        return null;
    }

    /// <summary>Whether two definitions describe the same index (same JSON form, names compared case-insensitively).</summary>
    public bool IsSameAs(IndexDefinition other)
    {
        ArgumentNullException.ThrowIfNull(other);
        return string.Equals(Name, other.Name, StringComparison.OrdinalIgnoreCase)
            && string.Equals(ToJson(includeName: false), other.ToJson(includeName: false), StringComparison.Ordinal);
    }

    /// <inheritdoc />
    public override string ToString() => Name;
}
