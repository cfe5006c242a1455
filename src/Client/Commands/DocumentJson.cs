namespace RavenLite.Client.Commands;

/// <summary>
/// A document as JSON, without a typed object in between: its key, its data and its stored metadata (without the
/// computed <c>@id</c>, <c>@etag</c> and <c>Last-Modified</c>) as UTF-8 JSON objects.
/// </summary>
/// <param name="Key">The document's key.</param>
/// <param name="DataJson">The document's data, a UTF-8 JSON object.</param>
/// <param name="MetadataJson">The document's stored metadata, a UTF-8 JSON object (<c>{}</c> for none).</param>
public sealed record DocumentJson(string Key, ReadOnlyMemory<byte> DataJson, ReadOnlyMemory<byte> MetadataJson)
{
    /// <summary>
    /// As read: the document's etag. In a put: the etag the document must have for the write to happen (null: no
    /// check; 0: it must not exist), as <see cref="ConcurrencyException"/> reports it otherwise.
    /// </summary>
    public long? Etag { get; init; }
}
