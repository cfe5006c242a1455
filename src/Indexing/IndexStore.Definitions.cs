using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing;

public sealed partial class IndexStore
{
    /// <summary>
    /// Creates an index, or replaces the definition of the one with the same name (compared case-insensitively),
    /// which is then rebuilt from the documents. Putting the same definition again changes nothing.
    /// </summary>
    /// <returns>True when the index was created or rebuilt; false when the definition was already in place.</returns>
    /// <exception cref="ArgumentException">The definition is invalid, or names a built-in index; nothing was stored.</exception>
    public bool PutIndex(IndexDefinition definition)
    {
        ArgumentNullException.ThrowIfNull(definition);
        definition.Validate();
        ThrowIfBuiltIn(definition.Name, "changed");
        lock (_definitionsLock)
        {
            ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
            var existing = Volatile.Read(ref _indexes).GetValueOrDefault(definition.Name);
            if (existing is not null && existing.Definition.IsSameAs(definition))
                return false;
            _registry.Save(definition);
            Replace(existing, definition.Name, () => DocumentIndex.CreateEmpty(definition, _options));
        }
        _indexer.Wake();
        return true;
    }

    /// <summary>The definition of the index named <paramref name="name"/>; null when there is none.</summary>
    public IndexDefinition? GetIndexDefinition(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        return Volatile.Read(ref _indexes).GetValueOrDefault(name)?.Definition;
    }

    /// <summary>Every index's definition, built-in ones included, ordered by name.</summary>
    public IReadOnlyList<IndexDefinition> GetIndexDefinitions() =>
        [.. Volatile.Read(ref _indexes).Values.Select(i => i.Definition).OrderBy(d => d.Name, StringComparer.OrdinalIgnoreCase)];

    /// <summary>Deletes a user index: its definition and its folder.</summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    /// <exception cref="ArgumentException">The index is built in.</exception>
    public void DeleteIndex(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        ThrowIfBuiltIn(name, "deleted");
        lock (_definitionsLock)
        {
            var existing = GetIndex(name);
            _registry.Remove(existing.Name);
            Replace(existing, existing.Name, create: null);
        }
    }

    /// <summary>Throws the index away and rebuilds it from the documents (built-in indexes too).</summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    public void ResetIndex(string name)
    {
        lock (_definitionsLock)
        {
            var existing = GetIndex(name);
            Replace(existing, existing.Name, () => DocumentIndex.CreateEmpty(existing.Definition, _options));
        }
        _indexer.Wake();
    }

    private void RebuildDamaged(DocumentIndex damaged)
    {
        lock (_definitionsLock)
        {
            if (Volatile.Read(ref _disposed) == 0 && Volatile.Read(ref _indexes).GetValueOrDefault(damaged.Name) == damaged)
                Replace(damaged, damaged.Name, () => DocumentIndex.CreateEmpty(damaged.Definition, _options));
        }
    }

    /// <summary>Retires <paramref name="existing"/> (deleting its folder) and publishes what <paramref name="create"/> makes in its place.</summary>
    private void Replace(DocumentIndex? existing, string name, Func<DocumentIndex>? create)
    {
        var indexes = new Dictionary<string, DocumentIndex>(Volatile.Read(ref _indexes), StringComparer.OrdinalIgnoreCase);
        indexes.Remove(name);
        Volatile.Write(ref _indexes, indexes);
        existing?.Retire(deleteFolder: true);
        if (create is null)
            return;
        var created = create();
        indexes = new Dictionary<string, DocumentIndex>(indexes, StringComparer.OrdinalIgnoreCase) { [name] = created };
        Volatile.Write(ref _indexes, indexes);
    }

    private static void ThrowIfBuiltIn(string name, string what)
    {
        if (IndexName.IsReserved(name))
        {
            throw new ArgumentException(
                $"'{name}': index names starting with '{IndexName.ReservedPrefix}' belong to built-in indexes, which cannot be {what}.",
                nameof(name));
        }
    }
}
