using System.Buffers;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

/// <summary>
/// Large blocks that a <see cref="DocumentContentWriter"/> copies the documents it finishes into, instead of an array
/// each, for a producer that hands documents to storage in batches and learns when each batch is written (a bulk
/// insert). The blocks of a batch are reused for later documents once <see cref="ReleaseBatch"/> says that batch is
/// no longer read: a document taken into these blocks must not be read after its batch is released.
/// </summary>
/// <remarks>
/// Documents are copied and batches ended on one thread; batches may be released on another. The blocks are rented
/// from the shared array pool and given back by <see cref="Dispose"/>, which may be called only once no document
/// taken into them is read any more (storage has written or dropped every batch); blocks not given back are collected.
/// </remarks>
public sealed class DocumentContentBlocks : IDisposable
{
    /// <summary>Under the large object heap's threshold, so that a short bulk insert does not put blocks there.</summary>
    private const int BlockSize = 64 * 1024;

    /// <summary>A larger document gets an array of its own: a block holds several documents at least.</summary>
    private const int MaxSharedDocument = BlockSize / 4;

    private readonly Lock _lock = new();
    private readonly Queue<List<byte[]>> _ended = new();
    private readonly Stack<byte[]> _free = new();
    private List<byte[]> _batch = [];
    private byte[] _block = [];
    private int _used;
    private bool _disposed;

    /// <summary>A copy of <paramref name="bson"/> in the current block (checked by the writer that made it).</summary>
    internal DocumentContent Copy(ReadOnlySpan<byte> bson)
    {
        if (bson.Length > MaxSharedDocument)
            return new DocumentContent(bson.ToArray());
        if (_block.Length - _used < bson.Length)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            _block = TakeFree() ?? ArrayPool<byte>.Shared.Rent(BlockSize);
            _used = 0;
            _batch.Add(_block);
        }
        var content = new DocumentContent(_block.AsMemory(_used, bson.Length));
        bson.CopyTo(_block.AsSpan(_used));
        _used += bson.Length;
        return content;
    }

    /// <summary>
    /// Ends a batch: the documents copied since the previous call are handed to storage together, and are released
    /// together by a later <see cref="ReleaseBatch"/>. The next document starts a new block.
    /// </summary>
    public void EndBatch()
    {
        lock (_lock)
            _ended.Enqueue(_batch);
        _batch = [];
        (_block, _used) = ([], 0);
    }

    /// <summary>
    /// The oldest batch ended and not yet released is no longer read (storage has written it): its blocks are reused.
    /// Nothing happens when every ended batch is released already.
    /// </summary>
    public void ReleaseBatch()
    {
        lock (_lock)
        {
            if (!_ended.TryDequeue(out var blocks))
                return;
            foreach (var block in blocks)
                _free.Push(block);
        }
    }

    /// <summary>
    /// Gives every block back to the shared pool, also those of batches not released: call it only when no document
    /// taken into them is read any more. Safe to call more than once.
    /// </summary>
    public void Dispose()
    {
        lock (_lock)
        {
            if (_disposed)
                return;
            _disposed = true;
            foreach (var block in _free.Concat(_ended.SelectMany(batch => batch)).Concat(_batch))
                ArrayPool<byte>.Shared.Return(block);
            _free.Clear();
            _ended.Clear();
            _batch = [];
            (_block, _used) = ([], 0);
        }
    }

    private byte[]? TakeFree()
    {
        lock (_lock)
            return _free.TryPop(out var block) ? block : null;
    }
}
