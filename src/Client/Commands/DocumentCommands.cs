using System.Runtime.InteropServices;
using RavenLite.Client.Backend;

namespace RavenLite.Client.Commands;

/// <summary>
/// Documents as raw JSON, for tools that move documents without knowing their types (export, import, copying between
/// databases): pages of all documents and batches of puts, through the same store, connection and error mapping as
/// sessions, so an embedded and a remote store behave alike. Like RavenDB's <c>DatabaseCommands</c>.
/// </summary>
/// <remarks>Thread-safe; valid as long as its store is. Errors are the store's: <see cref="ConcurrencyException"/>,
/// <see cref="ArgumentException"/> for a document the database refuses (nothing of its batch is written), and for a
/// remote store <see cref="HttpRequestException"/> (with its status) when the server refuses the request itself.</remarks>
/// <param name="store">The store to work through.</param>
public sealed class DocumentCommands(RavenStore store)
{
    private readonly IStoreBackend _backend = (store ?? throw new ArgumentNullException(nameof(store))).Backend;

    /// <summary>
    /// A page of all documents, newest first: skips <paramref name="start"/> documents and returns up to
    /// <paramref name="pageSize"/> (0 returns just the total).
    /// </summary>
    public Task<DocumentPage> GetDocumentsAsync(int start, int pageSize, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(start);
        ArgumentOutOfRangeException.ThrowIfNegative(pageSize);
        return _backend.GetDocumentsAsync(start, pageSize, cancellationToken);
    }

    /// <summary>
    /// Puts the documents in one transaction, all or none, each with its data and metadata as given and, when its
    /// <see cref="DocumentJson.Etag"/> is set, only if the stored document has that etag. Returns each one's new etag.
    /// </summary>
    public async Task<IReadOnlyList<long>> PutAsync(IReadOnlyList<DocumentJson> documents, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(documents);
        var commands = new WriteCommand[documents.Count];
        for (var i = 0; i < commands.Length; i++)
        {
            var document = documents[i] ?? throw new ArgumentException($"Document {i} is null.", nameof(documents));
            if (document.DataJson.IsEmpty)
                throw new ArgumentException($"Document {i} ('{document.Key}') has no data; it must be a JSON object.", nameof(documents));
            var metadata = document.MetadataJson.IsEmpty ? "{}"u8.ToArray() : Array(document.MetadataJson);
            commands[i] = WriteCommand.Put(document.Key, Array(document.DataJson), metadata, document.Etag);
        }
        var etags = await _backend.BatchAsync(commands, cancellationToken).ConfigureAwait(false);
        var result = new long[etags.Count];
        for (var i = 0; i < result.Length; i++)
            result[i] = etags[i] ?? throw new InvalidOperationException($"The put of '{documents[i].Key}' returned no etag.");
        return result;
    }

    /// <summary>The JSON's own array when it is one whole array (the usual case), else a copy.</summary>
    private static byte[] Array(ReadOnlyMemory<byte> json) =>
        MemoryMarshal.TryGetArray(json, out var segment) && segment.Offset == 0 && segment.Count == segment.Array!.Length
            ? segment.Array
            : json.ToArray();
}
