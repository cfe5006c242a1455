using RavenLite.Storage.Documents;

namespace RavenLite.Server.Cli;

/// <summary>One document of an export or import: its key and its metadata and data as UTF-8 JSON objects.</summary>
internal sealed record TransferDocument(string Key, ReadOnlyMemory<byte> MetadataJson, ReadOnlyMemory<byte> DataJson)
{
    /// <summary>The stored forms, checked as the database checks them (set by the importer for each line).</summary>
    public (DocumentContent Data, DocumentContent? Metadata)? Content { get; init; }

    /// <summary>The line's <c>"etag"</c>: null for no check, 0 for must not exist, else the current etag.</summary>
    public long? ExpectedEtag { get; init; }
}

/// <summary>Where an export reads documents from: batches in etag order, oldest first.</summary>
internal interface IDocumentSource
{
    /// <summary>How many documents there are, when known (for the progress bar).</summary>
    long? Total { get; }

    IAsyncEnumerable<IReadOnlyList<TransferDocument>> ReadAsync(CancellationToken cancellationToken);
}

/// <summary>Where an import writes documents to: each batch in one transaction, all or none.</summary>
internal interface IDocumentTarget
{
    /// <summary>Writes the batch; a refused document fails it with a message starting <c>Batch command N:</c>.</summary>
    Task WriteAsync(IReadOnlyList<TransferDocument> batch, CancellationToken cancellationToken);
}
