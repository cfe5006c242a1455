using System.Text;

namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>The maintained counts: documents, last etag, documents per entity name.</summary>
    public DocumentCounts GetCounts()
    {
        ThrowIfDisposed();
        using var tx = Engine.BeginRead();
        var byEntity = new Dictionary<string, long>(StringComparer.Ordinal);
        using (var cursor = tx.OpenCursor(EntityCountsTable))
        {
            for (var found = cursor.MoveFirst(); found; found = cursor.MoveNext())
                byEntity[Encoding.UTF8.GetString(cursor.Key)] = System.Buffers.Binary.BinaryPrimitives.ReadInt64LittleEndian(cursor.Value);
        }
        return new DocumentCounts(
            StoredValues.ReadInt64(tx, StateTable, DocumentCountName),
            StoredValues.ReadInt64(tx, StateTable, LastEtagName),
            byEntity);
    }
}
