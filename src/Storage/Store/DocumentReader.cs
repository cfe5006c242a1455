using System.Buffers;
using System.Text.Json;
using RavenLite.Storage.Bson;

namespace RavenLite.Storage.Documents;

/// <summary>Materializes a stored record (BSON) into a <see cref="Document"/>: the deserialization the cache saves.</summary>
internal static class DocumentReader
{
    [ThreadStatic]
    private static ArrayBufferWriter<byte>? t_buffer;

    // Bound to t_buffer for good: creating a writer per document cost a tenth of a small document's read.
    [ThreadStatic]
    private static Utf8JsonWriter? t_writer;

    /// <exception cref="StorageCorruptedException">The stored BSON cannot be read (it was damaged, or written before a check refused it).</exception>
    public static Document Read(scoped in DocumentRecord record)
    {
        try
        {
            return Decode(record);
        }
        catch (Exception ex) when (ex is not (OutOfMemoryException or StorageCorruptedException))
        {
            // Not the caller's mistake, whatever the decoder threw (ArgumentException included): the stored data is bad.
            throw new StorageCorruptedException(
                $"Document '{record.Key}' (etag {record.Etag}) is stored in a form that cannot be read: {ex.Message}", ex);
        }
    }

    private static Document Decode(scoped in DocumentRecord record)
    {
        if (t_buffer is not { } buffer || t_writer is not { } writer)
        {
            t_buffer = buffer = new ArrayBufferWriter<byte>(4096);
            t_writer = writer = BsonCodec.CreateJsonWriter(buffer);
        }
        buffer.ResetWrittenCount();
        var metadataTokens = BsonCodec.ToJson(record.MetadataBson, writer);
        var metadataLength = buffer.WrittenCount;
        var dataTokens = BsonCodec.ToJson(record.DataBson, writer);
        var json = buffer.WrittenSpan.ToArray();
        if (buffer.Capacity > 1024 * 1024)
            t_buffer = null; // do not pin a huge buffer (or its writer) to the thread after one big document
        return new Document(record.Key, record.Etag, record.LastModified, record.EntityName, json,
            metadataLength, metadataTokens, dataTokens);
    }
}
