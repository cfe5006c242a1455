using System.Runtime.CompilerServices;
using System.Threading.Channels;
using RavenLite.Client.Backend;

namespace RavenLite.Client;

// The hand-over of whole batches to the backend, which writes them on a background task.
public sealed partial class BulkInsertOperation
{
    /// <summary>Gives the batch gathered so far to the writer, waiting while it is a batch behind.</summary>
    private void HandOver()
    {
        var batch = TakeGathered();
        if (_batches.Writer.TryWrite(batch))
            return;
        try
        {
            var written = _batches.Writer.WriteAsync(batch, _cancellationToken).AsTask();
            // Blocks on the task's event: GetResult alone spins first, taking a core from the indexer while the
            // writer waits for its commit to reach the disk.
            if (!written.IsCompleted)
                ((IAsyncResult)written).AsyncWaitHandle.WaitOne();
            written.GetAwaiter().GetResult();
        }
        catch (ChannelClosedException)
        {
            ThrowIfStopped();
            throw;
        }
    }

    /// <inheritdoc cref="HandOver"/>
    private async ValueTask HandOverAsync()
    {
        var batch = TakeGathered();
        try
        {
            await _batches.Writer.WriteAsync(batch, _cancellationToken).ConfigureAwait(false);
        }
        catch (ChannelClosedException)
        {
            ThrowIfStopped();
            throw;
        }
    }

    private WriteCommand[] TakeGathered()
    {
        var batch = _gathered == _gathering.Length ? _gathering : _gathering[.._gathered];
        _gathering = new WriteCommand[_batchSize];
        _gathered = 0;
        _handedOver += batch.Length;
        if (_encoder is not null)
        {
            _encoder.EndBatch();
            _batchEnds.Enqueue(_handedOver);
        }
        return batch;
    }

    private async IAsyncEnumerable<WriteCommand> Puts([EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await foreach (var batch in _batches.Reader.ReadAllAsync(cancellationToken).ConfigureAwait(false))
        {
            foreach (var put in batch)
                yield return put;
        }
    }

    private async Task<long> WriteAsync()
    {
        try
        {
            return await _store.Backend.BulkInsertAsync(Puts(_cancellationToken), _batchSize, total =>
            {
                Interlocked.Exchange(ref _written, total);
                ReleaseWritten(total);
                BatchWritten?.Invoke(this, total);
            }, _cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            // Unblocks a Store waiting for room; it then rethrows this.
            _batches.Writer.TryComplete(ex);
            throw;
        }
    }

    /// <summary>Lets the encoder reuse the memory of every batch the backend has written (on the backend's thread).</summary>
    private void ReleaseWritten(long total)
    {
        while (_batchEnds.TryPeek(out var end) && end <= total && _batchEnds.TryDequeue(out _))
            _encoder!.ReleaseBatch();
    }
}
