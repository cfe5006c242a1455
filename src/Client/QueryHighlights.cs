namespace RavenLite.Client;

/// <summary>
/// The highlighted fragments of one field for the results of a query (<c>Highlight</c>), filled in as the query runs:
/// HTML, the matched terms wrapped in the tags asked for and the rest escaped.
/// </summary>
public sealed class QueryHighlights
{
    private readonly Dictionary<string, IReadOnlyList<string>> _byId = new(DocumentKeyComparer.Instance);

    internal QueryHighlights(string fieldName) => FieldName = fieldName;

    /// <summary>The index field highlighted.</summary>
    public string FieldName { get; }

    /// <summary>Each result's fragments by document id; a result whose field held no matched term is absent.</summary>
    public IReadOnlyDictionary<string, IReadOnlyList<string>> ByDocumentId => _byId;

    /// <summary>The fragments of the result <paramref name="documentId"/>, best first; empty when it has none.</summary>
    public IReadOnlyList<string> GetFragments(string documentId) =>
        _byId.TryGetValue(documentId, out var fragments) ? fragments : [];

    internal void Add(string documentId, IReadOnlyList<string> fragments) => _byId[documentId] = fragments;
}
