namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>
    /// With an engine that reads over a network, fetches the documents under <paramref name="storageKeys"/> in one round
    /// trip before they are loaded one by one; with LMDB, nothing.
    /// </summary>
    private void ReadAhead(IReadTransaction tx, List<byte[]> storageKeys)
    {
        if (tx is IReadAheadTransaction ahead && storageKeys.Count > 1)
            ahead.ReadAhead(DocumentsTable, storageKeys);
    }

    /// <summary>The feed's <see cref="ReadAhead(IReadTransaction, List{byte[]})"/>: the documents after <paramref name="etag"/>.</summary>
    private void ReadAheadAfterEtag(IReadTransaction tx, long etag, int maxCount)
    {
        if (tx is not IReadAheadTransaction)
            return;
        var keys = new List<byte[]>(Math.Min(maxCount, 1024));
        using (var cursor = tx.OpenCursor(ByEtagTable))
        {
            for (var found = cursor.Seek(StoredValues.EtagKey(etag + 1)); found && keys.Count < maxCount; found = cursor.MoveNext())
                keys.Add(cursor.Value.ToArray());
        }
        ReadAhead(tx, keys);
    }
}
