using System.Collections.Concurrent;
using System.Threading.Channels;
using RavenLite.Client.Backend;
using RavenLite.Client.Serialization;

namespace RavenLite.Client;

/// <summary>
/// Stores many new entities fast, without a session: each is serialized at once and written in batches, each batch
/// in one transaction, by the store's backend in the background. Ids are generated as sessions generate them; a
/// bad entity is refused with its position and nothing of its batch is written (earlier batches stay). Obtain one
/// from <see cref="RavenStore.BulkInsert"/>; used by one thread at a time; dispose it to write the last batch.
/// </summary>
public sealed partial class BulkInsertOperation : IDisposable, IAsyncDisposable
{
    private readonly RavenStore _store;
    private readonly int _batchSize;
    private readonly CancellationToken _cancellationToken;
    private readonly Channel<WriteCommand[]> _batches;
    private readonly Task<long> _writing;
    private WriteCommand[] _gathering;
    private int _gathered;
    private readonly Dictionary<Type, byte[]> _metadata = [];
    private readonly DocumentEncoder? _encoder;
    // Where each batch handed to the encoder's backend ends (entities handed over so far), until the backend has written it.
    private readonly ConcurrentQueue<long> _batchEnds = new();
    private long _handedOver;
    private Exception? _refused;
    private long _stored;
    private long _written;
    private int _disposed;

    internal BulkInsertOperation(RavenStore store, int batchSize, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);
        _store = store;
        _batchSize = batchSize;
        _cancellationToken = cancellationToken;
        _encoder = store.Backend.CreateDocumentEncoder();
        _gathering = new WriteCommand[batchSize];
        // Whole batches cross to the writer: one item at a time, a full channel woke the caller (and made it spin) per
        // entity. Bounded to one waiting batch, so a caller faster than the backend waits instead of buffering all.
        _batches = Channel.CreateBounded<WriteCommand[]>(new BoundedChannelOptions(1) { SingleReader = true, SingleWriter = true });
        _writing = Task.Run(WriteAsync, CancellationToken.None);
    }

    /// <summary>How many documents have been written so far (whole batches, committed).</summary>
    public long DocumentsWritten => Interlocked.Read(ref _written);

    /// <summary>Raised after each batch commits, with the running total of documents written (on a background thread).</summary>
    public event EventHandler<long>? BatchWritten;

    /// <summary>
    /// Queues a new entity for writing. Its id is its identity property (<c>Id</c>) or, when that is empty, a
    /// generated one (<c>carts/1</c>), which is set on the entity. Blocks while the backend is a batch behind.
    /// </summary>
    /// <exception cref="ArgumentException">The entity cannot be serialized to a JSON object (or has a bad id): its
    /// batch is not written, the operation stops, and the message says its position.</exception>
    /// <exception cref="OperationCanceledException">The token given at creation was cancelled; the batch being gathered is not written.</exception>
    public void Store(object entity) => Store(entity, id: null);

    /// <summary>As <see cref="Store(object)"/>, under the id given (also set on the entity's identity property); an existing document with it is replaced.</summary>
    public void Store(object entity, string? id)
    {
        ArgumentNullException.ThrowIfNull(entity);
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        ThrowIfStopped();
        var position = ++_stored;
        WriteCommand put;
        try
        {
            put = Prepare(entity, id);
        }
        catch (ArgumentException ex)
        {
            var first = (position - 1) / _batchSize * _batchSize + 1;
            var error = new ArgumentException(
                $"Bulk insert entity {position}: {ex.Message} Nothing of its batch (entities {first}-{position}) was written; " +
                $"{first - 1:N0} entities before it were.", nameof(entity), ex);
            Stop(error);
            throw error;
        }
        _gathering[_gathered++] = put;
        if (_gathered == _batchSize)
            HandOver();
    }

    private WriteCommand Prepare(object entity, string? id)
    {
        var type = entity.GetType();
        var identity = _store.IdentityOf(type);
        id ??= identity?.GetValue(entity) as string;
        var generated = string.IsNullOrEmpty(id);
        var entityName = _store.Conventions.FindEntityName(type);
        if (generated)
            id = _store.Ids.Next(_store.Conventions.FindIdPrefix(entityName));
        DocumentKey.Validate(id, nameof(id));
        _store.AssignId(entity, id!);
        // As a session: a generated id must be new, a given one replaces what is there.
        long? expectedEtag = generated ? 0 : null;
        var metadata = MetadataOf(type, entityName);
        // The backend's own form when it has one (BSON embedded: no JSON text to write and read again).
        if (_encoder is not null && _store.Serializer.TrySerialize(entity, _encoder) is { } encoded)
            return new WriteCommand(id!, Data: null, metadata, expectedEtag) { EncodedData = encoded };
        return WriteCommand.Put(id!, _store.Serializer.Serialize(entity, id!), metadata, expectedEtag);
    }

    /// <summary>
    /// The metadata of a new entity of <paramref name="type"/>, made once per type: the same bytes for every entity of
    /// it, which the embedded backend then encodes once per batch.
    /// </summary>
    private byte[] MetadataOf(Type type, string entityName)
    {
        if (!_metadata.TryGetValue(type, out var json))
            _metadata[type] = json = EntityMetadata.ForNew(entityName, type);
        return json;
    }

    /// <summary>Whether the batch being gathered is to be written on disposal: not after a refusal or cancellation.</summary>
    private bool HasLastBatch => _gathered > 0 && _refused is null && !_cancellationToken.IsCancellationRequested && !_writing.IsCompleted;

    /// <summary>Rethrows why the writing stopped (the backend refused a batch, or cancellation), if it did.</summary>
    private void ThrowIfStopped()
    {
        _cancellationToken.ThrowIfCancellationRequested();
        if (_writing.IsCompleted)
            _writing.GetAwaiter().GetResult();
    }

    private void Stop(Exception error)
    {
        _refused = error;
        _batches.Writer.TryComplete(error);
        try
        {
            _writing.GetAwaiter().GetResult();
        }
        catch (Exception ex) when (ex == error || ex is OperationCanceledException)
        {
            // The writer stopped on the error just raised, leaving the batch it was gathering unwritten.
        }
    }

    /// <summary>
    /// Writes the last batch and waits for the backend. Rethrows why writing stopped (a refused batch, cancellation),
    /// unless <see cref="Store(object)"/> has thrown it already; safe to call more than once.
    /// </summary>
    /// <exception cref="OperationCanceledException">The token given at creation was cancelled; the batch being gathered was not written.</exception>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        try
        {
            if (HasLastBatch)
                HandOver();
        }
        finally
        {
            _batches.Writer.TryComplete();
            try
            {
                _writing.GetAwaiter().GetResult();
            }
            catch (Exception ex) when (ex == _refused)
            {
                // Store has thrown it already.
            }
            finally
            {
                // Only once the backend has stopped: the encoder gives its documents' memory back to a shared pool.
                _encoder?.Dispose();
            }
        }
    }

    /// <inheritdoc cref="Dispose"/>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        try
        {
            if (HasLastBatch)
                await HandOverAsync().ConfigureAwait(false);
        }
        finally
        {
            _batches.Writer.TryComplete();
            try
            {
                await _writing.ConfigureAwait(false);
            }
            catch (Exception ex) when (ex == _refused)
            {
                // Store has thrown it already.
            }
            finally
            {
                _encoder?.Dispose();
            }
        }
    }
}
