using RavenLite.Storage;

namespace RavenLite.Indexing.Storage;

/// <summary>
/// An index's own storage engine in its folder (<c>&lt;data&gt;/Indexes/&lt;folder-name&gt;/</c>) and its tables:
/// <list type="bullet">
/// <item><c>postings</c>: field ordinal | term | doc id -> word positions (full-text) or nothing;</item>
/// <item><c>entries</c>: doc id -> <see cref="EntryRecord"/> (document key, sort values, the terms it produced);</item>
/// <item><c>keys</c>: case-folded document key -> doc id, to find the entry an update or delete replaces;</item>
/// <item><c>meta</c>: format, definition, generation and <see cref="IndexState"/>.</item>
/// </list>
/// </summary>
internal sealed class IndexStorage : IDisposable
{
    private int _disposed;

    private IndexStorage(IStorageEngine engine)
    {
        Engine = engine;
        Postings = engine.OpenTable("postings");
        Entries = engine.OpenTable("entries");
        Keys = engine.OpenTable("keys");
        Meta = engine.OpenTable("meta");
    }

    public IStorageEngine Engine { get; }

    public StorageTable Postings { get; }

    public StorageTable Entries { get; }

    public StorageTable Keys { get; }

    public StorageTable Meta { get; }

    /// <summary>A random id of this build of the index: continuation tokens from an earlier build are refused.</summary>
    public Guid Generation { get; private set; }

    /// <summary>
    /// Opens the index in <paramref name="folder"/>, or builds it afresh when the folder is missing, unreadable,
    /// of another format or made for another definition.
    /// </summary>
    /// <remarks><paramref name="rebuildReason"/> says why an existing folder was thrown away (null when it was used, or there was none).</remarks>
    public static IndexStorage Open(string folder, StorageOptions engineOptions, string definitionJson, out string? rebuildReason)
    {
        rebuildReason = null;
        if (Directory.Exists(folder))
        {
            try
            {
                var existing = OpenEngine(folder, engineOptions);
                rebuildReason = existing.Check(definitionJson);
                if (rebuildReason is null)
                    return existing;
                existing.Dispose();
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidOperationException or FormatException)
            {
                rebuildReason = $"it could not be read ({ex.GetType().Name}: {ex.Message})";
            }
            Directory.Delete(folder, recursive: true);
        }
        return Create(folder, engineOptions, definitionJson);
    }

    /// <summary>Creates an empty index in <paramref name="folder"/>, which must not exist or be empty.</summary>
    public static IndexStorage Create(string folder, StorageOptions engineOptions, string definitionJson)
    {
        var storage = OpenEngine(folder, engineOptions);
        try
        {
            storage.Generation = Guid.NewGuid();
            storage.Engine.Write(tx =>
            {
                MetaTable.Initialize(tx, storage.Meta, definitionJson, storage.Generation);
                return 0;
            });
            return storage;
        }
        catch
        {
            storage.Dispose();
            throw;
        }
    }

    private static IndexStorage OpenEngine(string folder, StorageOptions engineOptions)
    {
        var engine = StorageEngineFactory.Open(new StorageOptions
        {
            DataDirectory = folder,
            Engine = engineOptions.Engine,
            MapSize = engineOptions.MapSize,
            CacheEnabled = false,
        });
        try
        {
            return new IndexStorage(engine);
        }
        catch
        {
            engine.Dispose();
            throw;
        }
    }

    /// <returns>Null when the folder holds a complete index of this definition; otherwise why not.</returns>
    private string? Check(string definitionJson)
    {
        using var tx = Engine.BeginRead();
        var format = MetaTable.ReadFormat(tx, Meta);
        if (format != MetaTable.CurrentFormat)
            return format == 0 ? "it was never completed" : $"it has format {format}, not {MetaTable.CurrentFormat}";
        if (!string.Equals(MetaTable.ReadDefinition(tx, Meta), definitionJson, StringComparison.Ordinal))
            return "it was built for another definition";
        Generation = MetaTable.ReadGeneration(tx, Meta);
        return null;
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
            Engine.Dispose();
    }
}
