using RavenLite.Indexing.Extraction;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Indexer;

/// <summary>
/// Documents and deletions with etags in (<see cref="AfterEtag"/>, <see cref="UpToEtag"/>], in etag order, and the
/// versions the writes in that range replaced: every change in that range, so an index that applies it may move its
/// progress to <see cref="UpToEtag"/>.
/// </summary>
internal sealed class IndexingBatch(long afterEtag, long upToEtag, List<BatchItem> items, IReadOnlyList<VersionReplacement> replacements) : IDisposable
{
    /// <summary>How many replacement records a batch reads at most per item it may hold: past it, the batch ends earlier.</summary>
    private const int ReplacementsPerItem = 4;

    public long AfterEtag { get; } = afterEtag;

    public long UpToEtag { get; } = upToEtag;

    public IReadOnlyList<BatchItem> Items { get; } = items;

    /// <summary>The etag of the batch's first deletion or write that replaced a version (what a purge removes); null when it has none.</summary>
    public long? FirstPurgeableEtag
    {
        get
        {
            long? first = replacements.Count > 0 ? replacements[0].Etag : null;
            foreach (var item in Items)
            {
                if (item.Document is null && item.Unreadable is null)
                    return first is { } replacement && replacement < item.Etag ? replacement : item.Etag;
            }
            return first;
        }
    }

    /// <summary>
    /// The etags of the versions that the writes of the batch after <paramref name="indexedUpTo"/> replaced or deleted:
    /// what an index at <paramref name="indexedUpTo"/> deletes, whether or not it holds them. Each replaced version is
    /// older than the batch's items (a version read as current was not replaced by a write up to the batch's end), so
    /// an index that held one added it in an earlier batch; and a write whose own version was replaced before the batch
    /// was read still deletes the version it replaced, which the index may hold.
    /// </summary>
    public List<long>? ReplacedAfter(long indexedUpTo)
    {
        List<long>? etags = null;
        foreach (var (etag, replaced) in replacements)
        {
            if (etag > indexedUpTo)
                (etags ??= []).Add(replaced);
        }
        return etags;
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
        // Read last, up to the end the other reads settled on: each write up to it was committed with its record.
        var maxReplacements = ReplacementsPerItem * batchSize;
        var replacements = store.GetReplacementsAfterEtag(afterEtag, upTo, maxReplacements);
        if (replacements.Count == maxReplacements)
            upTo = replacements[^1].Etag;

        items.Sort(static (x, y) => x.Etag.CompareTo(y.Etag));
        if (items.Count > 0 && items[^1].Etag > upTo)
        {
            var kept = items.FindLastIndex(item => item.Etag <= upTo) + 1;
            foreach (var dropped in items.Skip(kept))
                dropped.Document?.Dispose();
            items.RemoveRange(kept, items.Count - kept);
        }
        return new IndexingBatch(afterEtag, upTo, items, replacements);
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
