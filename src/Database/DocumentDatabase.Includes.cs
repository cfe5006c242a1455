using RavenLite.Indexing.Extraction;
using RavenLite.Storage.Documents;

namespace RavenLite.Database;

/// <summary>Documents asked for by key and the documents they refer to.</summary>
/// <param name="Results">The documents, in the order asked for; null where there is none.</param>
/// <param name="Includes">The documents the results refer to at the include paths, each once, none of them among the results.</param>
public sealed record DocumentsWithIncludes(IReadOnlyList<Document?> Results, IReadOnlyList<Document> Includes);

public sealed partial class DocumentDatabase
{
    /// <summary>
    /// The documents with these keys and, in the same call, the documents their <paramref name="includePaths"/> refer to
    /// (paths as in index definitions: <c>CustomerId</c>, <c>Lines[].ProductId</c>; string values are document keys).
    /// Both reads go through the document cache.
    /// </summary>
    /// <exception cref="ArgumentException">A bad key or include path.</exception>
    public DocumentsWithIncludes GetWithIncludes(IReadOnlyList<string> keys, IReadOnlyList<string> includePaths)
    {
        ArgumentNullException.ThrowIfNull(keys);
        ArgumentNullException.ThrowIfNull(includePaths);
        foreach (var path in includePaths)
            DocumentReferences.Validate(path);
        var results = Unexpired(Documents.Get(keys));
        return new DocumentsWithIncludes(results, Included(results, includePaths));
    }

    /// <summary>The documents <paramref name="results"/> refer to at <paramref name="includePaths"/>, not already among them.</summary>
    public IReadOnlyList<Document> Included(IReadOnlyList<Document?> results, IReadOnlyList<string> includePaths)
    {
        ArgumentNullException.ThrowIfNull(results);
        ArgumentNullException.ThrowIfNull(includePaths);
        if (includePaths.Count == 0)
            return [];
        var ids = new HashSet<string>(DocumentKeyComparer.Instance);
        foreach (var document in results)
        {
            if (document is null)
                continue;
            foreach (var path in includePaths)
                DocumentReferences.Collect(document.Data, path, ids);
        }
        foreach (var document in results)
        {
            if (document is not null)
                ids.Remove(document.Key);
        }
        var valid = ids.Where(id => DocumentKey.IsValid(id)).ToList();
        return valid.Count == 0 ? [] : [.. Unexpired(Documents.Get(valid)).OfType<Document>()];
    }
}
