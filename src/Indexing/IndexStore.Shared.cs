namespace RavenLite.Indexing;

internal sealed partial class IndexStore
{
    /// <summary>How often, at most, a server over a shared database reads the stored index definitions again.</summary>
    internal static readonly TimeSpan DefinitionSyncInterval = TimeSpan.FromSeconds(1);

    private long _lastDefinitionSync;

    /// <summary>
    /// Another server committed to the shared database: it may have put or deleted an index definition. Reads them
    /// again at most once per <see cref="DefinitionSyncInterval"/> (the engine's poll brings the next chance).
    /// </summary>
    private void OnCommittedElsewhere()
    {
        var now = Environment.TickCount64;
        var last = Interlocked.Read(ref _lastDefinitionSync);
        if (now - last < DefinitionSyncInterval.TotalMilliseconds
            || Interlocked.CompareExchange(ref _lastDefinitionSync, now, last) != last)
            return;
        SyncDefinitions();
    }

    /// <summary>
    /// Makes this server's indexes match the stored definitions: opens (or builds) indexes defined elsewhere, rebuilds
    /// redefined ones, and drops deleted ones with their folders. Built-in indexes are never touched.
    /// </summary>
    internal void SyncDefinitions()
    {
        var changed = false;
        lock (_definitionsLock)
        {
            if (Volatile.Read(ref _disposed) != 0)
                return;
            var stored = _registry.LoadAll().ToDictionary(d => d.Name, StringComparer.OrdinalIgnoreCase);
            var current = Volatile.Read(ref _indexes);
            foreach (var definition in stored.Values)
            {
                var existing = current.GetValueOrDefault(definition.Name);
                if (existing is not null && existing.Definition.IsSameAs(definition))
                    continue;
                var index = existing is null ? OpenOrRebuild(definition, _documents.LastEtag) : existing.Reset(definition);
                if (index is null)
                    continue;
                Publish(definition.Name, index);
                changed = true;
            }
            foreach (var gone in current.Values.Where(i => !i.IsBuiltIn && !stored.ContainsKey(i.Name)).ToList())
            {
                Unpublish(gone);
                changed = true;
            }
        }
        if (changed)
            _indexer.Wake();
    }
}
