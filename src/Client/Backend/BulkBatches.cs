namespace RavenLite.Client.Backend;

/// <summary>Cuts a stream of puts into whole batches for a backend's <see cref="IStoreBackend.BulkInsertAsync"/>.</summary>
public static class BulkBatches
{
    /// <summary>
    /// Hands each full batch (and the last, shorter one) to <paramref name="write"/>; a batch is handed over only
    /// once it is complete, so a failing enumeration leaves the batch it was gathering unwritten.
    /// </summary>
    public static async Task<long> WriteAsync(IAsyncEnumerable<WriteCommand> puts, int batchSize, Action<long>? written,
        Func<IReadOnlyList<WriteCommand>, Task> write, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);
        var batch = new List<WriteCommand>(batchSize);
        long total = 0;
        await foreach (var put in puts.WithCancellation(cancellationToken).ConfigureAwait(false))
        {
            batch.Add(put);
            if (batch.Count < batchSize)
                continue;
            total = await FlushAsync().ConfigureAwait(false);
        }
        if (batch.Count > 0)
            total = await FlushAsync().ConfigureAwait(false);
        return total;

        async Task<long> FlushAsync()
        {
            cancellationToken.ThrowIfCancellationRequested();
            await write(batch).ConfigureAwait(false);
            total += batch.Count;
            batch = new List<WriteCommand>(batchSize);
            written?.Invoke(total);
            return total;
        }
    }
}
