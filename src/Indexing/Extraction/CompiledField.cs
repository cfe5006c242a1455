using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Extraction;

/// <summary>A field of a definition made ready to use: its parsed path, and the metadata it reads without parsing JSON.</summary>
internal sealed class CompiledField
{
    public CompiledField(IndexFieldDefinition definition)
    {
        Definition = definition;
        Path = JsonPath.Parse(definition.Path);
        if (definition.Source == FieldSource.Metadata)
        {
            Virtual = Path.SingleName switch
            {
                MetadataNames.EntityName => VirtualMetadata.EntityName,
                MetadataNames.LastModified => VirtualMetadata.LastModified,
                _ => VirtualMetadata.None,
            };
        }
    }

    public IndexFieldDefinition Definition { get; }

    public string Name => Definition.Name;

    public JsonPath Path { get; }

    /// <summary>Metadata the document already has decoded, read without parsing the metadata JSON.</summary>
    public VirtualMetadata Virtual { get; }

    public bool IsFullText => Definition.Analysis == FieldAnalysis.FullText;

    /// <summary>Whether the field indexes each value by its JSON type (<see cref="TypedValues"/>).</summary>
    public bool IsTyped => Definition.Analysis is FieldAnalysis.Typed or FieldAnalysis.TypedSearch;

    /// <summary>Whether a typed field's strings are also analyzed for word searches (<see cref="TypedValues.Text"/><c>@text</c>).</summary>
    public bool IsSearchable => Definition.Analysis == FieldAnalysis.TypedSearch;
}

/// <summary>Metadata values a <see cref="Document"/> carries outside its metadata JSON.</summary>
internal enum VirtualMetadata
{
    None,
    EntityName,
    LastModified,
}
