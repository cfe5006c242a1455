namespace RavenLite.Storage;

/// <summary>
/// A handle to a named, ordered table of an engine, returned by <see cref="IStorageEngine.OpenTable"/>.
/// Keys order by unsigned byte comparison.
/// </summary>
/// <param name="name">The table's name.</param>
/// <param name="id">The engine's own number for the table; only the engine that made the handle reads it.</param>
public sealed class StorageTable(string name, int id)
{
    /// <summary>The table's name.</summary>
    public string Name { get; } = name;

    /// <summary>The engine's own number for the table (an LMDB dbi, an index into ESENT's table list).</summary>
    public int Id { get; } = id;

    /// <inheritdoc />
    public override string ToString() => Name;
}
