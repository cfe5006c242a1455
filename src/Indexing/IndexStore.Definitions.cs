using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing;

internal sealed partial class IndexStore
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
        if (AutoIndexes.AutoIndexes.IsDynamic(definition.Name))
            throw new ArgumentException(
                $"'{definition.Name}': names starting with '{AutoIndexes.AutoIndexes.DynamicPrefix}' ask for collection queries answered by auto indexes; choose another name.",
                nameof(definition));
        lock (_definitionsLock)
        {
            ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
            var existing = Volatile.Read(ref _indexes).GetValueOrDefault(definition.Name);
            if (existing is not null && existing.Definition.IsSameAs(definition))
                return false;
            if (existing is null)
                ThrowIfPastAutoIndexLimit(definition);
            _registry.Save(definition);
            try
            {
                Publish(definition.Name, existing is null ? DocumentIndex.CreateEmpty(definition, _options) : existing.Reset(definition));
            }
            catch
            {
                // The old index (or none) still serves: the stored definition must say so too.
                if (existing is null)
                    _registry.Remove(definition.Name);
                else
                    _registry.Save(existing.Definition);
                throw;
            }
            _unavailable.TryRemove(definition.Name, out _);
            _indexer.Failures.Forget(definition.Name);
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
            Unpublish(existing);
        }
    }

    /// <summary>Throws the index away and rebuilds it from the documents (built-in indexes too).</summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    public void ResetIndex(string name)
    {
        lock (_definitionsLock)
        {
            var existing = GetIndex(name);
            Publish(existing.Name, existing.Reset(existing.Definition));
        }
        _indexer.Wake();
    }

    private void RebuildDamaged(DocumentIndex damaged)
    {
        lock (_definitionsLock)
        {
            if (Volatile.Read(ref _disposed) == 0 && Volatile.Read(ref _indexes).GetValueOrDefault(damaged.Name) == damaged)
                Publish(damaged.Name, damaged.Reset(damaged.Definition));
        }
    }

    /// <summary>
    /// Makes <paramref name="index"/> the one queries and the indexer find under <paramref name="name"/>. A reset or
    /// redefinition builds the replacement before this (<see cref="DocumentIndex.Reset"/>): if that fails, the old
    /// index is still the published one, and still serves.
    /// </summary>
    private void Publish(string name, DocumentIndex index)
    {
        var indexes = new Dictionary<string, DocumentIndex>(Volatile.Read(ref _indexes), StringComparer.OrdinalIgnoreCase) { [name] = index };
        Volatile.Write(ref _indexes, indexes);
    }

    /// <summary>Takes <paramref name="index"/> away from queries and the indexer, and deletes its folder.</summary>
    private void Unpublish(DocumentIndex index)
    {
        var indexes = new Dictionary<string, DocumentIndex>(Volatile.Read(ref _indexes), StringComparer.OrdinalIgnoreCase);
        indexes.Remove(index.Name);
        Volatile.Write(ref _indexes, indexes);
        index.Retire(deleteFolder: true);
        _indexer.Failures.Forget(index.Name);
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
