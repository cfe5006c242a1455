namespace RavenLite.Indexing.Definitions;

/// <summary>Which part of a document a field's path reads.</summary>
public enum FieldSource
{
    /// <summary>The document's data (the JSON object that was put).</summary>
    Data = 0,

    /// <summary>
    /// The document's metadata. Besides the stored members, <c>Raven-Entity-Name</c> and <c>Last-Modified</c>
    /// (the time of the write, as a fixed-width ISO-8601 UTC string) can always be read here.
    /// </summary>
    Metadata = 1,
}
