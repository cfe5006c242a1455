using System.Buffers.Binary;
using RavenLite.Indexing.Codecs;
using RavenLite.Storage;

namespace RavenLite.Indexing.Storage;

/// <summary>
/// Reads entries by doc id with one cursor: hits come in ascending runs, mostly adjacent, so stepping the cursor
/// replaces most of the B-tree lookups; anything else is a seek.
/// </summary>
internal sealed class EntryCursor(IReadTransaction tx, IndexStorage storage) : IDisposable
{
    private readonly IStorageCursor _cursor = tx.OpenCursor(storage.Entries);
    private readonly byte[] _key = new byte[PostingKeys.DocIdLength];
    private bool _positioned;

    /// <summary>The entry the cursor is on.</summary>
    public EntryRecord Current => new(_cursor.Value);

    /// <summary>Moves to the entry of <paramref name="docId"/>.</summary>
    /// <exception cref="StorageCorruptedException">A posting names a doc id that has no entry.</exception>
    public void MoveTo(long docId)
    {
        if (_positioned && PostingKeys.ReadDocIdKey(_cursor.Key) < docId && _cursor.MoveNext()
            && PostingKeys.ReadDocIdKey(_cursor.Key) == docId)
        {
            return;
        }
        BinaryPrimitives.WriteInt64BigEndian(_key, docId);
        _positioned = _cursor.Seek(_key);
        if (!_positioned || PostingKeys.ReadDocIdKey(_cursor.Key) != docId)
            throw new StorageCorruptedException($"Index entry {docId} is referenced by a posting but missing.");
    }

    public void Dispose() => _cursor.Dispose();
}
