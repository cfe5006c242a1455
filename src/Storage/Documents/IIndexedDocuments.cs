using System.Diagnostics.Metrics;

namespace RavenLite.Storage.Documents;

/// <summary>
/// What indexes need from the documents they index: the etag feed, tombstones, the current page of documents by
/// (key, etag), change notifications, the database's meter, and a place to keep index definitions beside the
/// documents. <see cref="DocumentStore"/> implements it; indexing sees nothing else of storage.
/// </summary>
public interface IIndexedDocuments
{
    /// <summary>The data folder's full path: the <c>ravenlite.database</c> tag of every instrument.</summary>
    string DatabaseName { get; }

    /// <summary>The database's <c>RavenLite</c> meter, on which indexing creates its instruments.</summary>
    Meter Meter { get; }

    /// <summary>The last etag given out by a committed write (0 for a new database).</summary>
    long LastEtag { get; }

    /// <summary>Raised after every committed write with the last etag it gave out; handlers must be quick.</summary>
    event Action<long>? DocumentsChanged;

    /// <summary>
    /// The last etag committed, read from storage: over a database other servers write too (PostgreSQL), their commits
    /// included. For waits that must cover every write acknowledged anywhere before they began.
    /// </summary>
    long ReadLastEtag();

    /// <summary>
    /// Raised when another server committed to a shared database (or the engine polled): index definitions may have
    /// changed. On a background thread; handlers must be quick or hand off.
    /// </summary>
    event Action? CommittedElsewhere;

    /// <summary>The current version of each key (null where there is none), in one read transaction.</summary>
    IReadOnlyList<Document?> GetCurrent(IReadOnlyList<string> keys);

    /// <summary>
    /// Documents whose current etags the caller knows (an index caught up with the database): a cached document at
    /// that etag is returned without a storage read; any other is read from storage. Keep the
    /// <see cref="KnownVersion"/>s to ask again: each remembers where the cache holds its document.
    /// </summary>
    DocumentsRead GetKnownVersions(IReadOnlyList<KnownVersion> versions);

    /// <summary>
    /// Documents whose current version has an etag greater than <paramref name="etag"/>, in etag order, at most
    /// <paramref name="maxCount"/>, without adding them to the cache; a version that cannot be read is handed to
    /// <paramref name="unreadable"/> (storage key, etag, error) and the feed goes on.
    /// </summary>
    IReadOnlyList<Document> GetDocumentsAfterEtag(long etag, int maxCount, bool addToCache, Action<string, long, Exception>? unreadable);

    /// <summary>
    /// As <see cref="GetDocumentsAfterEtag"/>, but only each version's header: its metadata and data are not decoded.
    /// For indexes that read nothing but the key, etag, entity name and last-modified time. A record whose framing is
    /// damaged is handed to <paramref name="unreadable"/> as there.
    /// </summary>
    IReadOnlyList<DocumentHeader> GetHeadersAfterEtag(long etag, int maxCount, Action<string, long, Exception>? unreadable);

    /// <summary>Tombstones with an etag greater than <paramref name="etag"/>, in etag order, at most <paramref name="maxCount"/>.</summary>
    IReadOnlyList<Tombstone> GetTombstonesAfterEtag(long etag, int maxCount);

    /// <summary>
    /// What the writes with an etag in (<paramref name="etag"/>, <paramref name="upToEtag"/>] replaced, in etag order, at
    /// most <paramref name="maxCount"/>: for each overwrite or deletion, the etag of the version it replaced. An index
    /// that has not seen a write deletes the version it holds by that etag (following the chain back past versions it
    /// never saw). Kept as long as tombstones are.
    /// </summary>
    IReadOnlyList<VersionReplacement> GetReplacementsAfterEtag(long etag, long upToEtag, int maxCount);

    /// <summary>
    /// Removes tombstones and replacement records up to and including <paramref name="etag"/> (every index has seen
    /// them).
    /// </summary>
    int PurgeTombstones(long etag);

    /// <summary>
    /// The highest etag of a tombstone or replacement record ever purged, read from storage (0 when none was): an index
    /// that has indexed less than this may have missed deletes or replaced versions whose records are gone (over a
    /// shared database, another server purged them), and must be rebuilt from the documents.
    /// </summary>
    long ReadTombstonesPurgedTo();

    /// <summary>Whether other servers write the same database (PostgreSQL) and purge its tombstones too.</summary>
    bool IsShared { get; }

    /// <summary>Every stored index definition: (folder name, definition JSON).</summary>
    IReadOnlyList<KeyValuePair<string, string>> ReadIndexDefinitions();

    /// <summary>Stores (or replaces) the definition JSON under <paramref name="folderName"/>, durably.</summary>
    void SaveIndexDefinition(string folderName, string json);

    /// <summary>Removes the definition under <paramref name="folderName"/>; false when there was none.</summary>
    bool DeleteIndexDefinition(string folderName);
}
