namespace RavenLite.Indexing;

/// <summary>Something about a document that an index could not index; the rest of the document, and the index, carry on.</summary>
/// <param name="Index">The index's name.</param>
/// <param name="DocumentKey">The document's key.</param>
/// <param name="Message">What went wrong, naming the field.</param>
/// <param name="At">When (UTC).</param>
/// <param name="Etag">The etag of the document version that could not be indexed; 0 when the error is not about one.</param>
public sealed record IndexingError(string Index, string DocumentKey, string Message, DateTimeOffset At, long Etag = 0);
