using RavenLite.Indexing.Extraction;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Indexer;

/// <summary>
/// Documents and deletions with etags in (<see cref="AfterEtag"/>, <see cref="UpToEtag"/>], in etag order:
/// every change in that range, so an index that applies it may move its progress to <see cref="UpToEtag"/>.
/// </summary>
internal sealed class IndexingBatch(long afterEtag, long upToEtag, List<BatchItem> items) : IDisposable
{
    public long AfterEtag { get; } = afterEtag;

    public long UpToEtag { get; } = upToEtag;

    public IReadOnlyList<BatchItem> Items { get; } = items;

    /// <summary>The first deletion's etag; null when the batch has none.</summary>
    public long? FirstTombstoneEtag
    {
        get
        {
            foreach (var item in Items)
            {
                if (item.Document is null && item.Unreadable is null)
                    return item.Etag;
            }
            return null;
        }
    }

    /// <summary>
    /// Reads the changes after <paramref name="afterEtag"/>, up to <paramref name="lastEtag"/> (the database's last
    /// etag, read before this): documents in one storage read transaction, deletions in another. Nothing written
    /// after <paramref name="lastEtag"/> is taken, and the end is moved back to the last item of a full read, so
    /// no change in the range can be missing however the two reads interleave with writes. With <paramref name="json"/>
    /// false, documents are read as headers only (no index of the batch reads their JSON).
    /// </summary>
    public static IndexingBatch Read(IIndexedDocuments store, long afterEtag, long lastEtag, int batchSize, bool json)
    {
        var upTo = lastEtag;
        var tombstones = store.GetTombstonesAfterEtag(afterEtag, batchSize);
        if (tombstones.Count == batchSize)
            upTo = Math.Min(upTo, tombstones[^1].Etag);
        var unreadable = new List<BatchItem>();
        Action<string, long, Exception> onUnreadable =
            (key, etag, error) => unreadable.Add(new BatchItem(etag, key, null, $"{error.GetType().Name}: {error.Message}"));
        var documents = json
            ? store.GetDocumentsAfterEtag(afterEtag, batchSize, addToCache: false, onUnreadable).Select(document => new ParsedDocument(document)).ToList()
            : store.GetHeadersAfterEtag(afterEtag, batchSize, onUnreadable).Select(header => new ParsedDocument(header)).ToList();
        if (documents.Count + unreadable.Count == batchSize)
            upTo = Math.Min(upTo, Math.Max(documents.Count > 0 ? documents[^1].Etag : 0, unreadable.Count > 0 ? unreadable[^1].Etag : 0));

        var items = new List<BatchItem>(documents.Count + tombstones.Count + unreadable.Count);
        items.AddRange(unreadable.Where(item => item.Etag <= upTo));
        foreach (var tombstone in tombstones)
        {
            if (tombstone.Etag <= upTo)
                items.Add(new BatchItem(tombstone.Etag, tombstone.Key, null));
        }
        foreach (var document in documents)
        {
            if (document.Etag <= upTo)
                items.Add(new BatchItem(document.Etag, document.Key, document));
            else
                document.Dispose();
        }
        items.Sort(static (x, y) => x.Etag.CompareTo(y.Etag));
        return new IndexingBatch(afterEtag, upTo, items);
    }

    public void Dispose()
    {
        foreach (var item in Items)
            item.Document?.Dispose();
    }
}

/// <summary>
/// A document version (<see cref="Document"/> set), a deletion (both null), or a stored version that could not be read
/// (<see cref="Unreadable"/> says why) at an etag.
/// </summary>
internal readonly record struct BatchItem(long Etag, string Key, ParsedDocument? Document, string? Unreadable = null);
