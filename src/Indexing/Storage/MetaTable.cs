using System.Buffers.Binary;
using System.Text;
using System.Text.Json;
using RavenLite.Storage;

namespace RavenLite.Indexing.Storage;

/// <summary>The named values of an index's meta table: format, definition, generation and <see cref="IndexState"/>.</summary>
internal static class MetaTable
{
    /// <summary>2: entries keep the etag of the document version they were built from.</summary>
    public const long CurrentFormat = 2;
    private static readonly byte[] s_format = Encoding.UTF8.GetBytes("format");
    private static readonly byte[] s_definition = Encoding.UTF8.GetBytes("definition");
    private static readonly byte[] s_generation = Encoding.UTF8.GetBytes("generation");
    private static readonly byte[] s_lastEtag = Encoding.UTF8.GetBytes("last-indexed-etag");
    private static readonly byte[] s_documents = Encoding.UTF8.GetBytes("documents");
    private static readonly byte[] s_nextDocId = Encoding.UTF8.GetBytes("next-doc-id");
    private static readonly byte[] s_indexedAt = Encoding.UTF8.GetBytes("indexed-at");
    private static readonly byte[] s_errorCount = Encoding.UTF8.GetBytes("error-count");
    private static readonly byte[] s_lastError = Encoding.UTF8.GetBytes("last-error");

    public static long ReadFormat(IReadTransaction tx, StorageTable meta) => ReadInt64(tx, meta, s_format) ?? 0;

    public static string? ReadDefinition(IReadTransaction tx, StorageTable meta) =>
        tx.TryGet(meta, s_definition, out var value) ? Encoding.UTF8.GetString(value) : null;

    public static Guid ReadGeneration(IReadTransaction tx, StorageTable meta) =>
        tx.TryGet(meta, s_generation, out var value) && value.Length == 16 ? new Guid(value) : Guid.Empty;

    /// <summary>Writes a fresh index's identity; its state starts at <see cref="IndexState.Empty"/>.</summary>
    public static void Initialize(IWriteTransaction tx, StorageTable meta, string definitionJson, Guid generation)
    {
        tx.Put(meta, s_format, Int64(CurrentFormat));
        tx.Put(meta, s_definition, Encoding.UTF8.GetBytes(definitionJson));
        tx.Put(meta, s_generation, generation.ToByteArray());
        WriteState(tx, meta, IndexState.Empty);
    }

    public static IndexState ReadState(IReadTransaction tx, StorageTable meta) => new(
        ReadInt64(tx, meta, s_lastEtag) ?? 0,
        ReadInt64(tx, meta, s_documents) ?? 0,
        ReadInt64(tx, meta, s_nextDocId) ?? 1,
        ReadInt64(tx, meta, s_indexedAt) is { } ticks ? new DateTimeOffset(ticks, TimeSpan.Zero) : null,
        ReadInt64(tx, meta, s_errorCount) ?? 0,
        tx.TryGet(meta, s_lastError, out var error) ? JsonSerializer.Deserialize(error, IndexingJsonContext.Default.IndexingError) : null);

    public static void WriteState(IWriteTransaction tx, StorageTable meta, IndexState state)
    {
        tx.Put(meta, s_lastEtag, Int64(state.LastIndexedEtag));
        tx.Put(meta, s_documents, Int64(state.DocumentCount));
        tx.Put(meta, s_nextDocId, Int64(state.NextDocId));
        if (state.IndexedAt is { } at)
            tx.Put(meta, s_indexedAt, Int64(at.UtcTicks));
        tx.Put(meta, s_errorCount, Int64(state.ErrorCount));
        if (state.LastError is { } lastError)
            tx.Put(meta, s_lastError, JsonSerializer.SerializeToUtf8Bytes(lastError, IndexingJsonContext.Default.IndexingError));
    }

    private static long? ReadInt64(IReadTransaction tx, StorageTable meta, byte[] name) =>
        tx.TryGet(meta, name, out var value) && value.Length == 8 ? BinaryPrimitives.ReadInt64LittleEndian(value) : null;

    private static byte[] Int64(long value)
    {
        var bytes = new byte[8];
        BinaryPrimitives.WriteInt64LittleEndian(bytes, value);
        return bytes;
    }
}
