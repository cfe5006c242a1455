using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Persistence;

/// <summary>
/// User index definitions, kept beside the documents (<see cref="IIndexedDocuments.ReadIndexDefinitions"/>) and outside
/// the index folders, so deleting an index folder loses nothing: the index is rebuilt from its definition.
/// </summary>
internal sealed class DefinitionRegistry(IIndexedDocuments documents, Action<string> log)
{
    public List<IndexDefinition> LoadAll()
    {
        var definitions = new List<IndexDefinition>();
        foreach (var (folder, json) in documents.ReadIndexDefinitions())
        {
            try
            {
                definitions.Add(IndexDefinition.FromJson(json));
            }
            catch (ArgumentException ex)
            {
                log($"The stored index definition under '{folder}' is not valid and was skipped: {ex.Message}");
            }
        }
        return definitions;
    }

    public void Save(IndexDefinition definition) => documents.SaveIndexDefinition(IndexName.ToFolderName(definition.Name), definition.ToJson());

    public void Remove(string name) => documents.DeleteIndexDefinition(IndexName.ToFolderName(name));
}
