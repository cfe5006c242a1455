namespace RavenLite.Client.Backend;

/// <summary>Documents loaded by key, and the documents they refer to at the include paths, from one round trip.</summary>
/// <param name="Results">The documents, in the order asked for; null where there is none.</param>
/// <param name="Includes">The referenced documents that exist, each once.</param>
public sealed record LoadResult(IReadOnlyList<StoredDocument?> Results, IReadOnlyList<StoredDocument> Includes);
