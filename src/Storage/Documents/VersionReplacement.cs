namespace RavenLite.Storage.Documents;

/// <summary>The write at <see cref="Etag"/> (an overwrite or a deletion) replaced the document version at <see cref="ReplacedEtag"/>.</summary>
/// <param name="Etag">The etag of the write.</param>
/// <param name="ReplacedEtag">The etag of the version it replaced.</param>
public readonly record struct VersionReplacement(long Etag, long ReplacedEtag);
