using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Storage;

namespace RavenLite.Indexing;

/// <summary>
/// One index of a database: its definition, its storage, its progress. The background indexer is its one
/// writer; queries read it through snapshot transactions of its engine.
/// </summary>
internal sealed partial class DocumentIndex : IDisposable
{
    private IndexState _state;
    private long _indexedSinceOpen;
    private int _disposed;

    private DocumentIndex(CompiledIndex compiled, IndexStorage storage, string folder)
    {
        Compiled = compiled;
        Storage = storage;
        Folder = folder;
        using var tx = storage.Engine.BeginRead();
        _state = MetaTable.ReadState(tx, storage.Meta);
    }

    public IndexDefinition Definition => Compiled.Definition;

    public string Name => Definition.Name;

    public CompiledIndex Compiled { get; }

    public IndexStorage Storage { get; }

    public string Folder { get; }

    public bool IsBuiltIn => IndexName.IsReserved(Name);

    /// <summary>Held while a batch is written, and while the index is retired, so the two never overlap.</summary>
    public object WriteLock { get; } = new();

    /// <summary>Set (under <see cref="WriteLock"/>) once the index was deleted or replaced: nothing more is written to it.</summary>
    public bool IsRetired { get; private set; }

    public IndexState State => Volatile.Read(ref _state);

    public long LastIndexedEtag => State.LastIndexedEtag;

    public long IndexedSinceOpen => Interlocked.Read(ref _indexedSinceOpen);

    /// <summary>Opens the index in its folder, building it afresh (and logging why) when the folder cannot be used.</summary>
    public static DocumentIndex Open(IndexDefinition definition, IndexingOptions options, Action<string> log, bool logMissing)
    {
        var folder = Path.Combine(options.IndexesDirectory, IndexName.ToFolderName(definition.Name));
        var existed = Directory.Exists(folder);
        var storage = IndexStorage.Open(folder, options.EngineOptions(folder), definition.ToJson(), out var rebuildReason);
        if (rebuildReason is not null)
            log($"Index '{definition.Name}': the folder '{folder}' was thrown away because {rebuildReason}; rebuilding it from the documents.");
        else if (!existed && logMissing)
            log($"Index '{definition.Name}': the folder '{folder}' is missing; rebuilding it from the documents.");
        return Create(definition, storage, folder);
    }

    /// <summary>Creates the index afresh, throwing away whatever its folder held.</summary>
    public static DocumentIndex CreateEmpty(IndexDefinition definition, IndexingOptions options)
    {
        var folder = Path.Combine(options.IndexesDirectory, IndexName.ToFolderName(definition.Name));
        if (Directory.Exists(folder))
            Directory.Delete(folder, recursive: true);
        return Create(definition, IndexStorage.Create(folder, options.EngineOptions(folder), definition.ToJson()), folder);
    }

    private static DocumentIndex Create(IndexDefinition definition, IndexStorage storage, string folder)
    {
        try
        {
            return new DocumentIndex(new CompiledIndex(definition), storage, folder);
        }
        catch
        {
            storage.Dispose();
            throw;
        }
    }

    /// <summary>Stops all writing, closes the storage and, when <paramref name="deleteFolder"/>, removes the folder.</summary>
    public void Retire(bool deleteFolder)
    {
        lock (WriteLock)
        {
            IsRetired = true;
            Dispose();
            if (deleteFolder && Directory.Exists(Folder))
                Directory.Delete(Folder, recursive: true);
        }
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
            Storage.Dispose();
    }
}
