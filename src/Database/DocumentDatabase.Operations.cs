using System.Collections.Concurrent;
using Newtonsoft.Json.Linq;
using RavenLite.Storage.Documents;

namespace RavenLite.Database;

public sealed partial class DocumentDatabase
{
    private const int FinishedOperationsKept = 100;
    private readonly ConcurrentDictionary<long, SetOperation> _operations = new();
    private long _lastOperationId;

    /// <summary>
    /// Starts applying <paramref name="patch"/> to every document <paramref name="query"/> matches on index
    /// <paramref name="indexName"/>, and returns at once with the running operation.
    /// </summary>
    /// <remarks>
    /// The set is the keys the index matches when the operation starts (read from one searcher, no document loaded).
    /// They are then patched in batches of <see cref="SetOperationOptions.BatchSize"/>, one write transaction each, through
    /// the same write path as <see cref="Batch"/> (so the changes feed and the indexes see every change). Inside that
    /// transaction each document is read and patched at its current version, so a write made meanwhile is not lost:
    /// the patch applies on top of it. A document deleted meanwhile is skipped; one changed so that it no longer matches
    /// the query is still patched (add a <c>test</c> operation to guard against that). A document the patch refuses is
    /// left whole as it was and reported (<see cref="SetOperationOptions.StopOnFailure"/> says whether the operation goes
    /// on). An operation is not resumed after the process stops: the batches it committed stay committed.
    /// </remarks>
    /// <param name="indexName">The index to query (<c>dynamic/{collection}</c> as for <see cref="Query(string, IndexQuery)"/>).</param>
    /// <param name="query">The query in Lucene syntax; null or empty matches every document of the index.</param>
    /// <param name="patch">The JSON Patch (with increments) to apply to each document.</param>
    /// <param name="options">Stale index, failure and batch settings; null for the defaults.</param>
    /// <exception cref="IndexStaleException">The index is stale and <see cref="SetOperationOptions.AllowStale"/> is false; nothing was changed.</exception>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    /// <exception cref="QueryException">The query cannot be parsed.</exception>
    public SetOperation PatchByQuery(string indexName, string? query, DocumentPatch patch, SetOperationOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(patch);
        return StartSetOperation(SetOperationKind.Patch, indexName, query, patch, options ?? new SetOperationOptions());
    }

    /// <summary>
    /// Starts deleting every document <paramref name="query"/> matches on index <paramref name="indexName"/>, and returns
    /// at once with the running operation. As <see cref="PatchByQuery"/>: the set is what the index matches when it
    /// starts, deleted in batches of one write transaction each; a document rewritten meanwhile is deleted at its new
    /// version, one already gone is skipped.
    /// </summary>
    /// <inheritdoc cref="PatchByQuery" path="/exception"/>
    public SetOperation DeleteByQuery(string indexName, string? query, SetOperationOptions? options = null) =>
        StartSetOperation(SetOperationKind.Delete, indexName, query, null, options ?? new SetOperationOptions());

    /// <summary>The set operation with this id (running, or one of the last 100 finished), or null.</summary>
    public SetOperation? GetOperation(long id) => _operations.GetValueOrDefault(id);

    /// <summary>The set operations running and the last 100 finished, newest first.</summary>
    public IReadOnlyList<SetOperationStatus> GetOperations() =>
        [.. _operations.Values.Select(o => o.Status).OrderByDescending(s => s.Id)];

    private SetOperation StartSetOperation(SetOperationKind kind, string indexName, string? query, DocumentPatch? patch, SetOperationOptions options)
    {
        ArgumentNullException.ThrowIfNull(indexName);
        options.Validate();
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        var matches = Indexes.Matches(indexName, string.IsNullOrEmpty(query) ? null : query);
        if (matches.IsStale && !options.AllowStale)
            throw new IndexStaleException(matches.IndexName, matches.IndexEtag, matches.DatabaseEtag);
        var operation = new SetOperation(Interlocked.Increment(ref _lastOperationId), kind, matches.IndexName, query,
            matches.Keys.Count, Options.TimeProvider.GetUtcNow());
        _operations[operation.Id] = operation;
        ForgetOldOperations();
        _ = Task.Factory.StartNew(() => RunSetOperation(operation, matches.Keys, patch, options), CancellationToken.None,
            TaskCreationOptions.LongRunning, TaskScheduler.Default);
        return operation;
    }

    private void RunSetOperation(SetOperation operation, IReadOnlyList<string> keys, DocumentPatch? patch, SetOperationOptions options)
    {
        var token = operation.CancellationToken;
        try
        {
            for (var start = 0; start < keys.Count; start += options.BatchSize)
            {
                if (token.IsCancellationRequested)
                {
                    operation.Finish(SetOperationState.Cancelled, Options.TimeProvider.GetUtcNow(), null);
                    return;
                }
                var count = Math.Min(options.BatchSize, keys.Count - start);
                var batch = new BatchRefusals(options.StopOnFailure);
                var commands = new BatchCommand[count];
                for (var i = 0; i < count; i++)
                {
                    var key = keys[start + i];
                    commands[i] = patch is null
                        ? BatchCommand.Delete(key)
                        : BatchCommand.Patch(key, new OneDocumentPatch(patch, batch, i));
                }
                var results = Documents.Batch(commands);
                var changed = 0;
                foreach (var result in results)
                {
                    if (patch is null ? result.Deleted : result.Etag is not null)
                        changed++;
                }
                var stoppedAt = batch.StoppedAt;
                var status = operation.BatchDone(stoppedAt is { } at ? at + 1 : count, changed, batch.Failures);
                options.Progress?.Report(status);
                if (stoppedAt is not null)
                {
                    operation.Finish(SetOperationState.Stopped, Options.TimeProvider.GetUtcNow(),
                        $"Stopped at the first document the patch refused: {status.Failures[^1].Error}");
                    return;
                }
            }
            operation.Finish(SetOperationState.Completed, Options.TimeProvider.GetUtcNow(), null);
        }
#pragma warning disable CA1031 // A failed operation is reported in its status; it must never reach the process.
        catch (Exception ex)
        {
            operation.Finish(SetOperationState.Failed, Options.TimeProvider.GetUtcNow(), ex.Message);
        }
#pragma warning restore CA1031
    }

    private void ForgetOldOperations()
    {
        var finished = _operations.Values.Where(o => o.Status.State != SetOperationState.Running).OrderByDescending(o => o.Id).Skip(FinishedOperationsKept);
        foreach (var old in finished)
            _operations.TryRemove(old.Id, out _);
    }

    /// <summary>Called by <see cref="Dispose"/> before the store closes: cancels running operations and waits for their current batch.</summary>
    private void StopOperations()
    {
        var running = _operations.Values.Where(o => o.Status.State == SetOperationState.Running).ToList();
        foreach (var operation in running)
            operation.Cancel();
        foreach (var operation in running)
            operation.Completion.Wait(TimeSpan.FromSeconds(30));
    }

    /// <summary>
    /// The documents a batch's patch refused, by their position in the batch. The engine may run a batch's work again
    /// (LMDB grows its map and retries), so each position's outcome is overwritten, never appended.
    /// </summary>
    private sealed class BatchRefusals(bool stopOnFailure)
    {
        private readonly SortedDictionary<int, SetOperationFailure> _refused = [];

        public bool StopOnFailure => stopOnFailure;

        /// <summary>With <see cref="StopOnFailure"/>, the position of the first refused document; otherwise null.</summary>
        public int? StoppedAt => stopOnFailure && _refused.Count > 0 ? _refused.Keys.First() : null;

        public IEnumerable<SetOperationFailure> Failures => StoppedAt is { } at ? [_refused[at]] : _refused.Values;

        public void Applied(int position) => _refused.Remove(position);

        public void Refused(int position, SetOperationFailure failure) => _refused[position] = failure;
    }

    /// <summary>The patch of one document of a batch: a refusal leaves that document as it was instead of failing the batch.</summary>
    private sealed class OneDocumentPatch(DocumentPatch patch, BatchRefusals batch, int position) : ISkippingDocumentPatch
    {
        public JObject Apply(string key, JObject data) => patch.Apply(key, data);

        public JObject? ApplyOrSkip(string key, JObject data)
        {
            if (batch.StoppedAt is { } stopped && position > stopped)
                return null;
            try
            {
                var patched = patch.Apply(key, data);
                batch.Applied(position);
                return patched;
            }
            catch (Exception ex) when (ex is PatchException or LimitExceededException or ArgumentException)
            {
                batch.Refused(position, new SetOperationFailure(key, ex.Message));
                return null;
            }
        }
    }
}
