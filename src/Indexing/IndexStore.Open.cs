using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing;

internal sealed partial class IndexStore
{
    private void OpenIndexes()
    {
        Directory.CreateDirectory(_options.IndexesDirectory);
        var lastEtag = _documents.LastEtag;
        var opened = new Dictionary<string, DocumentIndex>(StringComparer.OrdinalIgnoreCase);
        try
        {
            foreach (var definition in BuiltInIndexes.All.Concat(_registry.LoadAll()))
            {
                if (!opened.ContainsKey(definition.Name) && OpenOrRebuild(definition, lastEtag) is { } index)
                    opened.Add(definition.Name, index);
            }
        }
        finally
        {
            Volatile.Write(ref _indexes, opened);
        }
    }

    /// <summary>
    /// Opens one index; if that fails in a way the open itself does not handle (its folder cannot be created, say), the
    /// path is cleared and the index rebuilt; if even that fails, it is left out and reported in the statistics, and the
    /// database opens without it. One bad index never stops the database from opening.
    /// </summary>
    private DocumentIndex? OpenOrRebuild(IndexDefinition definition, long databaseLastEtag)
    {
#pragma warning disable CA1031 // Any failure of one index is logged and reported; the others and the database carry on.
        try
        {
            return OpenIndex(definition, databaseLastEtag);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            var path = Path.Combine(_options.IndexesDirectory, IndexName.ToFolderName(definition.Name));
            _log($"Index '{definition.Name}' could not be opened ({ex.GetType().Name}: {ex.Message}); rebuilding it from the documents.");
            try
            {
                if (File.Exists(path))
                    File.Delete(path);
                return DocumentIndex.CreateEmpty(definition, _options);
            }
            catch (Exception again) when (again is not OutOfMemoryException)
            {
                var message = $"The index could not be opened or rebuilt ({again.GetType().Name}: {again.Message}); it is left out until the database is opened again.";
                _log($"Index '{definition.Name}': {message}");
                _unavailable[definition.Name] = new IndexingError(definition.Name, "", message, _options.TimeProvider.GetUtcNow());
                return null;
            }
        }
#pragma warning restore CA1031
    }

    private DocumentIndex OpenIndex(IndexDefinition definition, long databaseLastEtag)
    {
        var index = DocumentIndex.Open(definition, _options, _log, logMissing: databaseLastEtag > 0);
        if (index.LastIndexedEtag <= databaseLastEtag)
            return index;
        // The database lost writes the index had seen (lazy commits before a crash, or a restored backup): its etags
        // will be given out again, so the index must forget them.
        _log($"Index '{definition.Name}' has indexed up to etag {index.LastIndexedEtag} but the database is only at etag " +
            $"{databaseLastEtag}; rebuilding it from the documents.");
        return index.Reset(definition);
    }
}
