namespace RavenLite.Storage;

/// <summary>
/// A handle to a named, ordered table of an engine, returned by <see cref="IStorageEngine.OpenTable"/>.
/// Keys order by unsigned byte comparison.
/// </summary>
public sealed class StorageTable
{
    internal StorageTable(string name, int id)
    {
        Name = name;
        Id = id;
    }

    /// <summary>The table's name.</summary>
    public string Name { get; }

    /// <summary>The engine's own number for the table (an LMDB dbi, an index into ESENT's table list).</summary>
    internal int Id { get; }

    /// <inheritdoc />
    public override string ToString() => Name;
}
