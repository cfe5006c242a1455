using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.Extraction;

/// <summary>A definition made ready to index documents and answer queries.</summary>
internal sealed class CompiledIndex
{
    public CompiledIndex(IndexDefinition definition)
    {
        Definition = definition;
        var fields = new CompiledField[definition.Fields.Count];
        for (var i = 0; i < fields.Length; i++)
            fields[i] = new CompiledField(definition.Fields[i]);
        Fields = fields;
        ReadsJson = fields.Any(field => field.Virtual == VirtualMetadata.None);
    }

    /// <summary>
    /// Whether any field reads the document's JSON; when none does (the built-in index), the index needs only each
    /// version's header, and a batch for it alone is read without decoding documents.
    /// </summary>
    public bool ReadsJson { get; }

    public IndexDefinition Definition { get; }

    public IReadOnlyList<CompiledField> Fields { get; }

    public CompiledField? FindField(string name)
    {
        foreach (var field in Fields)
        {
            if (string.Equals(field.Name, name, StringComparison.Ordinal))
                return field;
        }
        return null;
    }

    /// <summary>Whether the document belongs in this index (the entity-name filter, when there is one).</summary>
    public bool Covers(string? entityName) =>
        Definition.EntityName is null || string.Equals(Definition.EntityName, entityName, StringComparison.Ordinal);
}
