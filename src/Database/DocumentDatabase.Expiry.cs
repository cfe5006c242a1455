using RavenLite.Indexing;
using RavenLite.Storage.Documents;

namespace RavenLite.Database;

public sealed partial class DocumentDatabase
{
    private const int ExpiryScanBatch = 1024;
    private readonly object _expiryLock = new();
    private readonly PriorityQueue<(string Key, long Etag), DateTimeOffset> _expiring = new();
    private long _expiryScannedEtag;
    private ITimer? _expiryTimer;
    private int _expiryRunning;
    private volatile bool _sawExpiring;

    /// <summary>
    /// Deletes every document whose expiry time (metadata <see cref="MetadataNames.Expires"/>) has passed, through the
    /// normal write path (the changes feed and the indexes see each delete), and returns how many it deleted. The
    /// background task (<see cref="DocumentDatabaseOptions.ExpiryInterval"/>) calls it; call it yourself to purge now.
    /// </summary>
    /// <remarks>
    /// It follows the documents by etag, as the indexer does: the first call reads every document's metadata, later calls
    /// only what was written since, and the documents that carry an expiry are kept in memory ordered by it. A document
    /// rewritten since it was seen is deleted only if its new version has expired too.
    /// </remarks>
    public int DeleteExpired()
    {
        lock (_expiryLock)
        {
            ScanForExpiry();
            var now = Options.TimeProvider.GetUtcNow();
            var due = new List<(string Key, long Etag)>();
            while (_expiring.TryPeek(out var next, out var at) && at <= now)
            {
                _expiring.Dequeue();
                due.Add(next);
            }
            var deleted = 0;
            foreach (var chunk in due.Chunk(SetOperationOptions.DefaultBatchSize))
                deleted += DeleteVersions(chunk);
            return deleted;
        }
    }

    /// <summary>Deletes these versions in one transaction; if one was rewritten meanwhile, one at a time, skipping it.</summary>
    private int DeleteVersions((string Key, long Etag)[] versions)
    {
        try
        {
            return Documents.Batch([.. versions.Select(v => BatchCommand.Delete(v.Key, v.Etag))]).Count(r => r.Deleted);
        }
        catch (ConcurrencyException)
        {
            var deleted = 0;
            foreach (var (key, etag) in versions)
            {
                try
                {
                    if (Documents.Delete(key, etag))
                        deleted++;
                }
                catch (ConcurrencyException)
                {
                    // Rewritten or deleted since it was seen: a new version was (or will be) scanned on its own.
                }
            }
            return deleted;
        }
    }

    /// <summary>Reads the metadata of every version written since the last scan, keeping those that carry an expiry.</summary>
    private void ScanForExpiry()
    {
        while (true)
        {
            var last = _expiryScannedEtag;
            var documents = Documents.GetDocumentsAfterEtag(last, ExpiryScanBatch, addToCache: false,
                unreadable: (_, etag, _) => last = Math.Max(last, etag));
            foreach (var document in documents)
            {
                last = Math.Max(last, document.Etag);
                if (ExpiryTime.Of(document) is { } at)
                {
                    _sawExpiring = true;
                    _expiring.Enqueue((document.Key, document.Etag), at);
                }
            }
            if (last == _expiryScannedEtag)
                return;
            _expiryScannedEtag = last;
        }
    }

    /// <summary>Called by the constructor: starts the expiry task unless <see cref="DocumentDatabaseOptions.ExpiryInterval"/> is zero.</summary>
    private void StartExpiry()
    {
        var interval = Options.ExpiryInterval;
        if (interval > TimeSpan.Zero)
            _expiryTimer = Options.TimeProvider.CreateTimer(_ => DeleteExpiredInBackground(), null, interval, interval);
    }

    private void StopExpiry()
    {
        _expiryTimer?.Dispose();
        // Waits for a run in progress; a tick after this sees the database disposed and does nothing.
        lock (_expiryLock)
        {
        }
    }

    private void DeleteExpiredInBackground()
    {
        if (Volatile.Read(ref _disposed) != 0 || Interlocked.CompareExchange(ref _expiryRunning, 1, 0) != 0)
            return;
        try
        {
            DeleteExpired();
        }
#pragma warning disable CA1031 // A failed run (a full disk, the database closing) is tried again at the next tick.
        catch (Exception)
        {
        }
#pragma warning restore CA1031
        finally
        {
            Volatile.Write(ref _expiryRunning, 0);
        }
    }

    private bool IsExpired(Document? document, DateTimeOffset now)
    {
        if (document is null || ExpiryTime.Of(document) is not { } at)
            return false;
        _sawExpiring = true;
        return at <= now;
    }

    private Document? Unexpired(Document? document) =>
        IsExpired(document, Options.TimeProvider.GetUtcNow()) ? null : document;

    private IReadOnlyList<Document?> Unexpired(IReadOnlyList<Document?> documents)
    {
        var now = Options.TimeProvider.GetUtcNow();
        Document?[]? kept = null;
        for (var i = 0; i < documents.Count; i++)
        {
            if (!IsExpired(documents[i], now))
                continue;
            kept ??= [.. documents];
            kept[i] = null;
        }
        return kept ?? documents;
    }

    private IReadOnlyList<Document> UnexpiredOnly(IReadOnlyList<Document> documents)
    {
        var now = Options.TimeProvider.GetUtcNow();
        List<Document>? kept = null;
        for (var i = 0; i < documents.Count; i++)
        {
            var expired = IsExpired(documents[i], now);
            if (expired && kept is null)
                kept = [.. documents.Take(i)];
            else if (!expired)
                kept?.Add(documents[i]);
        }
        return kept ?? documents;
    }

    /// <summary>The result without its expired documents, and each result's score and highlights kept beside it.</summary>
    private QueryResult Unexpired(QueryResult result)
    {
        var now = Options.TimeProvider.GetUtcNow();
        var documents = result.Results;
        bool[]? kept = null;
        for (var i = 0; i < documents.Count; i++)
        {
            if (!IsExpired(documents[i], now))
                continue;
            kept ??= [.. Enumerable.Repeat(true, documents.Count)];
            kept[i] = false;
        }
        if (kept is null)
            return result;
        var results = documents.Where((_, i) => kept[i]).ToList();
        return result with
        {
            Results = results,
            SkippedResults = result.SkippedResults + documents.Count - results.Count,
            Scores = result.Scores is { } scores ? [.. scores.Where((_, i) => kept[i])] : null,
            Highlights = result.Highlights is { } highlights ? [.. highlights.Where((_, i) => kept[i])] : null,
        };
    }
}
