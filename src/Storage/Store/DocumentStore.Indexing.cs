using System.Text;

namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore : IIndexedDocuments
{
    IReadOnlyList<Document?> IIndexedDocuments.GetCurrent(IReadOnlyList<string> keys) => Get(keys);

    IReadOnlyList<KeyValuePair<string, string>> IIndexedDocuments.ReadIndexDefinitions()
    {
        ThrowIfDisposed();
        var definitions = new List<KeyValuePair<string, string>>();
        using var tx = Engine.BeginRead();
        using var cursor = tx.OpenCursor(IndexDefinitionsTable);
        for (var found = cursor.MoveFirst(); found; found = cursor.MoveNext())
            definitions.Add(new(Encoding.UTF8.GetString(cursor.Key), Encoding.UTF8.GetString(cursor.Value)));
        return definitions;
    }

    void IIndexedDocuments.SaveIndexDefinition(string folderName, string json)
    {
        ThrowIfDisposed();
        Engine.Write(tx =>
        {
            tx.Put(IndexDefinitionsTable, Encoding.UTF8.GetBytes(folderName), Encoding.UTF8.GetBytes(json));
            return 0;
        });
    }

    bool IIndexedDocuments.DeleteIndexDefinition(string folderName)
    {
        ThrowIfDisposed();
        return Engine.Write(tx => tx.Delete(IndexDefinitionsTable, Encoding.UTF8.GetBytes(folderName)));
    }
}
