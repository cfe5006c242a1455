using System.Text;

namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
{
    private Func<long>? _tombstoneFloor;

    /// <summary>
    /// Keeps <see cref="PurgeTombstones"/> from removing tombstones after the etag <paramref name="floor"/> returns: the
    /// position of the slowest open changes feed, which must still deliver those deletes.
    /// </summary>
    public void KeepTombstonesAfter(Func<long> floor) => Volatile.Write(ref _tombstoneFloor, floor);

    /// <summary>
    /// Puts (current versions) and deletes (tombstones) with an etag greater than <paramref name="etag"/>, merged in etag
    /// order, at most <paramref name="maxCount"/>, read in one transaction so nothing committed before it is skipped. Reads
    /// only record headers (key, etag, entity name), never the documents' bodies. Deletes older than the indexes'
    /// tombstone purge are gone.
    /// </summary>
    public IReadOnlyList<DatabaseChange> GetChangesAfterEtag(long etag, int maxCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(etag);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxCount);
        ThrowIfDisposed();
        var changes = new List<DatabaseChange>(Math.Min(maxCount, 1024));
        var from = StoredValues.EtagKey(etag + 1);
        using var tx = Engine.BeginRead();
        using var puts = tx.OpenCursor(ByEtagTable);
        using var deletes = tx.OpenCursor(TombstonesTable);
        var hasPut = puts.Seek(from);
        var hasDelete = deletes.Seek(from);
        while (changes.Count < maxCount && (hasPut || hasDelete))
        {
            var putEtag = hasPut ? StoredValues.ReadEtagKey(puts.Key) : long.MaxValue;
            var deleteEtag = hasDelete ? StoredValues.ReadEtagKey(deletes.Key) : long.MaxValue;
            if (putEtag < deleteEtag)
            {
                if (tx.TryGet(DocumentsTable, puts.Value, out var span))
                {
                    var record = new DocumentRecord(span);
                    changes.Add(new DatabaseChange(ChangeKind.Put, putEtag, record.Key, record.EntityName));
                }
                hasPut = puts.MoveNext();
            }
            else
            {
                changes.Add(new DatabaseChange(ChangeKind.Delete, deleteEtag, Encoding.UTF8.GetString(deletes.Value), null));
                hasDelete = deletes.MoveNext();
            }
        }
        return changes;
    }
}
