using RavenLite.Storage.Documents;

namespace RavenLite.Database;

public sealed partial class DocumentDatabase
{
    /// <inheritdoc cref="DocumentStore.LastEtag"/>
    public long LastEtag => Documents.LastEtag;

    /// <inheritdoc cref="DocumentStore.GetDocumentsAfterEtag(long, int)"/>
    public IReadOnlyList<Document> GetDocumentsAfterEtag(long etag, int maxCount) => Documents.GetDocumentsAfterEtag(etag, maxCount);

    /// <inheritdoc cref="DocumentStore.GetDocumentsAfterEtag(long, int, bool)"/>
    public IReadOnlyList<Document> GetDocumentsAfterEtag(long etag, int maxCount, bool addToCache) =>
        Documents.GetDocumentsAfterEtag(etag, maxCount, addToCache);

    /// <inheritdoc cref="DocumentStore.GetTombstonesAfterEtag"/>
    public IReadOnlyList<Tombstone> GetTombstonesAfterEtag(long etag, int maxCount) => Documents.GetTombstonesAfterEtag(etag, maxCount);

    /// <inheritdoc cref="DocumentStore.GetRaw"/>
    public RawDocument? GetRaw(string key) => Documents.GetRaw(key);
}
