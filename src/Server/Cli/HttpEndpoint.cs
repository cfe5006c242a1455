using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using RavenLite.Client;
using RavenLite.Client.Backend;

namespace RavenLite.Server.Cli;

/// <summary>
/// Export and import against a running server, through the remote client's backend: pages of <c>GET /docs</c> and
/// <c>POST /bulk_docs</c> batches, with the client's reading of documents and errors.
/// </summary>
internal sealed class HttpEndpoint : IDocumentSource, IDocumentTarget, IDisposable
{
    private readonly Uri _url;
    private readonly RavenStore _store;

    public HttpEndpoint(Uri url, string? apiKey)
    {
        _url = url;
        _store = RavenStore.ForServer(url, requestTimeout: TimeSpan.FromMinutes(5), apiKey: apiKey);
    }

    public long? Total { get; private set; }

    /// <summary>
    /// <c>GET /docs</c> pages newest first, so the pages are read from the oldest end backwards and each is reversed:
    /// the file is in etag order. Writes made to the server while it runs may be missed or seen twice.
    /// </summary>
    public async IAsyncEnumerable<IReadOnlyList<TransferDocument>> ReadAsync([EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var end = (await CallAsync(() => _store.Backend.GetDocumentsAsync(0, 0, cancellationToken))).TotalResults;
        Total = end;
        while (end > 0)
        {
            var start = Math.Max(0, end - TransferOptions.BatchSize);
            var size = (int)(end - start);
            var page = await CallAsync(() => _store.Backend.GetDocumentsAsync(checked((int)start), size, cancellationToken));
            if (page.PageSize < size)
                throw new TransferException($"The server returns at most {page.PageSize} documents a page; export needs {TransferOptions.BatchSize}.");
            var results = new TransferDocument[page.Results.Count];
            for (var i = 0; i < results.Length; i++)
            {
                var document = page.Results[results.Length - 1 - i];
                results[i] = new TransferDocument(document.Key, document.MetadataJson, document.DataJson);
            }
            yield return results;
            end = start;
        }
    }

    /// <summary>One <c>POST /bulk_docs</c>; a refused document fails it with the client's <see cref="ArgumentException"/>.</summary>
    public Task WriteAsync(IReadOnlyList<TransferDocument> batch, CancellationToken cancellationToken)
    {
        var commands = new WriteCommand[batch.Count];
        for (var i = 0; i < commands.Length; i++)
            commands[i] = WriteCommand.Put(batch[i].Key, Json(batch[i].DataJson), Json(batch[i].MetadataJson), expectedEtag: null);
        return CallAsync(() => _store.Backend.BatchAsync(commands, cancellationToken));
    }

    /// <summary>The line's own array (the importer makes one per member), else a copy.</summary>
    private static byte[] Json(ReadOnlyMemory<byte> json) =>
        MemoryMarshal.TryGetArray(json, out var segment) && segment.Offset == 0 && segment.Count == segment.Array!.Length
            ? segment.Array
            : json.ToArray();

    /// <summary>What stops a transfer (an unreachable server, a refusal of the request itself) as a <see cref="TransferException"/>.</summary>
    private async Task<T> CallAsync<T>(Func<Task<T>> call)
    {
        try
        {
            return await call();
        }
        catch (HttpRequestException ex) when (ex.StatusCode is { } status)
        {
            throw new TransferException($"{ex.Message} (HTTP {(int)status})", ex);
        }
        catch (HttpRequestException ex)
        {
            throw new TransferException($"Cannot reach {_url}: {ex.Message}", ex);
        }
        catch (Exception ex) when (ex is TimeoutException or ObjectDisposedException or ConcurrencyException)
        {
            throw new TransferException(ex.Message, ex);
        }
    }

    public void Dispose() => _store.Dispose();
}
