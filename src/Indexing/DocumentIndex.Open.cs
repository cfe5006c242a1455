using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Persistence;

namespace RavenLite.Indexing;

internal sealed partial class DocumentIndex
{
    /// <summary>
    /// Opens the index in its folder, building it afresh (and logging why) when the folder is missing, holds the old
    /// in-house format, cannot be read, or was built for another definition.
    /// </summary>
    public static DocumentIndex Open(IndexDefinition definition, IndexingOptions options, Action<string> log, bool logMissing)
    {
        var folder = FolderOf(definition, options);
        var json = definition.ToJson();
        string? reason = null;
        if (!Directory.Exists(folder))
        {
            if (logMissing)
                log($"Index '{definition.Name}': the folder '{folder}' is missing; rebuilding it from the documents.");
        }
        else if (Directory.Exists(Path.Combine(folder, "lmdb")) || Directory.Exists(Path.Combine(folder, "esent")))
        {
            reason = "it holds an index in RavenLite's old in-house format";
        }
        else if (!LuceneIndex.HasCommit(folder))
        {
            reason = "it holds no Lucene commit (it was never completed)";
        }
        else
        {
            LuceneIndex? lucene = null;
#pragma warning disable CA1031 // Whatever Lucene throws for an unreadable folder, the answer is the same: rebuild it.
            try
            {
                lucene = LuceneIndex.Open(folder, out var userData);
                var committed = CommitData.FromUserData(userData, 0, out reason);
                if (committed is not null && !string.Equals(committed.Definition, json, StringComparison.Ordinal))
                    reason = "it was built for another definition";
                if (reason is null)
                    return new DocumentIndex(new CompiledIndex(definition), lucene, folder, committed!, options);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                reason = $"it could not be read ({ex.GetType().Name}: {ex.Message})";
            }
#pragma warning restore CA1031
            TryDispose(lucene);
        }
        if (reason is not null)
            log($"Index '{definition.Name}': the folder '{folder}' was thrown away because {reason}; rebuilding it from the documents.");
        return CreateEmpty(definition, options);
    }

    /// <summary>Creates the index afresh, throwing away whatever its folder held.</summary>
    public static DocumentIndex CreateEmpty(IndexDefinition definition, IndexingOptions options)
    {
        var folder = FolderOf(definition, options);
        var committed = new CommitData(definition.ToJson(), Guid.NewGuid(), IndexState.Empty);
        var lucene = LuceneIndex.Create(folder, committed);
        try
        {
            return new DocumentIndex(new CompiledIndex(definition), lucene, folder, committed, options);
        }
        catch
        {
            lucene.Dispose();
            throw;
        }
    }

    private static string FolderOf(IndexDefinition definition, IndexingOptions options) =>
        Path.Combine(options.IndexesDirectory, IndexName.ToFolderName(definition.Name));
}
