using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Definitions;

/// <summary>The indexes every database has; users cannot change or delete them.</summary>
public static class BuiltInIndexes
{
    /// <summary>The name of the index of documents by entity name.</summary>
    public const string DocumentsByEntityNameName = "Raven/DocumentsByEntityName";

    /// <summary>
    /// <c>Raven/DocumentsByEntityName</c>: <c>Tag</c> is the metadata <c>Raven-Entity-Name</c>, exact and
    /// case-sensitive (<c>Tag:Item</c>); <c>LastModified</c> is the time of the write as a fixed-width ISO-8601
    /// UTC string (<c>2026-11-21T09:30:00.0000000Z</c>), so string order is time order. Both are sortable.
    /// </summary>
    public static IndexDefinition DocumentsByEntityName { get; } = new()
    {
        Name = DocumentsByEntityNameName,
        Fields =
        [
            new IndexFieldDefinition
            {
                Name = "Tag", Path = MetadataNames.EntityName, Source = FieldSource.Metadata, Sort = FieldSort.String,
            },
            new IndexFieldDefinition
            {
                Name = "LastModified", Path = MetadataNames.LastModified, Source = FieldSource.Metadata, Sort = FieldSort.String,
            },
        ],
    };

    /// <summary>Every built-in index.</summary>
    public static IReadOnlyList<IndexDefinition> All { get; } = [DocumentsByEntityName];
}
