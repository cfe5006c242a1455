using System.Buffers;

namespace RavenLite.Storage.Documents;

/// <summary>Materializes a stored record (BSON) into a <see cref="Document"/>: the deserialization the cache saves.</summary>
internal static class DocumentReader
{
    [ThreadStatic]
    private static ArrayBufferWriter<byte>? t_buffer;

    public static Document Read(scoped in DocumentRecord record)
    {
        var buffer = t_buffer ??= new ArrayBufferWriter<byte>(4096);
        buffer.ResetWrittenCount();
        var metadataTokens = BsonCodec.ToJson(record.MetadataBson, buffer);
        var metadataLength = buffer.WrittenCount;
        var dataTokens = BsonCodec.ToJson(record.DataBson, buffer);
        var json = buffer.WrittenSpan.ToArray();
        if (buffer.Capacity > 1024 * 1024)
            t_buffer = null; // do not pin a huge buffer to the thread after one big document
        return new Document(record.Key, record.Etag, record.LastModified, record.EntityName, json,
            metadataLength, metadataTokens, dataTokens);
    }
}
