using System.Text;
using RavenLite.Indexing.Definitions;
using RavenLite.Storage;

namespace RavenLite.Indexing.Persistence;

/// <summary>
/// User index definitions, kept in the database's own engine (table <c>index-definitions</c>: index folder name
/// -> definition JSON), beside the documents and outside the index folders, so deleting an index folder loses
/// nothing: the index is rebuilt from its definition.
/// </summary>
internal sealed class DefinitionRegistry(IStorageEngine engine, Action<string> log)
{
    private readonly StorageTable _table = engine.OpenTable("index-definitions");

    public List<IndexDefinition> LoadAll()
    {
        var definitions = new List<IndexDefinition>();
        using var tx = engine.BeginRead();
        using var cursor = tx.OpenCursor(_table);
        for (var found = cursor.MoveFirst(); found; found = cursor.MoveNext())
        {
            var json = Encoding.UTF8.GetString(cursor.Value);
            try
            {
                definitions.Add(IndexDefinition.FromJson(json));
            }
            catch (ArgumentException ex)
            {
                log($"The stored index definition under '{Encoding.UTF8.GetString(cursor.Key)}' is not valid and was skipped: {ex.Message}");
            }
        }
        return definitions;
    }

    public void Save(IndexDefinition definition) => engine.Write(tx =>
    {
        tx.Put(_table, Key(definition.Name), Encoding.UTF8.GetBytes(definition.ToJson()));
        return 0;
    });

    public void Remove(string name) => engine.Write(tx => tx.Delete(_table, Key(name)));

    private static byte[] Key(string name) => Encoding.UTF8.GetBytes(IndexName.ToFolderName(name));
}
