namespace RavenLite.Storage.Documents;

/// <summary>Metadata member names RavenLite gives meaning to.</summary>
public static class MetadataNames
{
    /// <summary>The collection a document belongs to (<c>Tag</c> in the built-in index).</summary>
    public const string EntityName = "Raven-Entity-Name";

    /// <summary>When the document was last written; kept beside the metadata, reported as this name.</summary>
    public const string LastModified = "Last-Modified";
}
