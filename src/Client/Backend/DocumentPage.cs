namespace RavenLite.Client.Backend;

/// <summary>A page of all documents, newest first, as <see cref="IStoreBackend.GetDocumentsAsync"/> returns it.</summary>
/// <param name="Results">The page's documents, newest (highest etag) first.</param>
/// <param name="PageSize">
/// The page size applied: a server clamps a larger request to its maximum, so fewer than asked for does not by itself
/// mean the end.
/// </param>
/// <param name="TotalResults">How many documents the database holds.</param>
public sealed record DocumentPage(IReadOnlyList<StoredDocument> Results, int PageSize, long TotalResults);
