using System.Reflection;
using RavenLite.Client.Backend;
using RavenLite.Client.Copying;
using RavenLite.Client.Serialization;

namespace RavenLite.Client.Caching;

/// <summary>
/// Entities from documents for a store's sessions: a type the copier handles is deserialized once per (key, etag,
/// type) into the entity cache and handed out as compiled copies, the cached instance doubling as the snapshot change
/// tracking compares with (a read-only type's instance is handed out itself: see <see cref="ReadOnlyTypes"/>); any other type is deserialized on every read (decided once per type, see
/// <see cref="EntityCopiers.FallbackReason"/>).
/// </summary>
internal sealed class EntityMaterializer(RavenStore store, EntityCache cache)
{
    private readonly EntityCopiers _copiers = new(store.Conventions.SerializerSettings);

    public EntityCache Cache { get; } = cache;

    // The type last read and its copier: a page is read as one type, so most reads skip the lookup by type.
    private volatile TypeCopier? _last;

    /// <summary>The copier of <paramref name="type"/>; null when it falls back to deserialization.</summary>
    public ObjectCopier? CopierFor(Type type)
    {
        if (_last is { } last && last.Type == type)
            return last.Copier;
        var copier = _copiers.For(type);
        _last = new TypeCopier(type, copier);
        return copier;
    }

    /// <summary>Why <paramref name="type"/> is deserialized on every read; null when it is copied.</summary>
    public string? FallbackReason(Type type) => _copiers.FallbackReason(type);

    /// <summary>
    /// A new entity for user code, and <paramref name="original"/>: the cached instance it was copied from (null for a
    /// type that falls back). <paramref name="admit"/> false looks the cache up without adding to it (streaming).
    /// </summary>
    public object Materialize(StoredDocument document, Type requested, bool admit, out object? original)
    {
        var type = ResolveType(document, requested);
        if (CopierFor(type) is not { } copier)
        {
            original = null;
            return Deserialize(document, type);
        }
        object cached;
        if (document.Materialized is { } kept && ReferenceEquals(kept.Owner, this) && kept.Type == type && Cache.Enabled)
        {
            cached = kept.Original;
            Cache.CountKeptHit();
        }
        else
        {
            if (!Cache.TryGet(document.Key, document.Etag, type, out cached))
            {
                cached = Deserialize(document, type);
                if (admit)
                    Cache.Add(document.Key, document.Etag, type, cached, document.DataJson.Length);
            }
            // Kept on the version too: a backend that hands out the same instance for the next read (the embedded one,
            // from its document cache) lets that read skip the cache lookup.
            if (admit && Cache.Enabled)
                document.Materialized = new MaterializedEntity(this, type, cached);
        }
        original = cached;
        return copier.Copy(cached);
    }

    private sealed record TypeCopier(Type Type, ObjectCopier? Copier);

    private object Deserialize(StoredDocument document, Type type)
    {
        var entity = store.Serializer.Deserialize(document.DataJson, type, document.Key);
        store.IdentityOf(entity.GetType())?.SetValue(entity, document.Key);
        return entity;
    }

    /// <summary>The type asked for, or the stored CLR type when the conventions ask for it and it derives from the type asked for.</summary>
    private Type ResolveType(StoredDocument document, Type requested)
    {
        if (store.Conventions.UseClrTypeOnLoad && EntityMetadata.Read(document.MetadataJson, EntityMetadata.ClrType) is { } name
            && ResolveLoadedType(name) is { } stored && stored != requested && requested.IsAssignableFrom(stored))
            return stored;
        return requested;
    }

    /// <summary>
    /// The type a <c>Raven-Clr-Type</c> names, looked up only in assemblies already loaded: a name written into the
    /// database must not make the process load an assembly.
    /// </summary>
    private static Type? ResolveLoadedType(string name) => Type.GetType(name,
        assembly => AppDomain.CurrentDomain.GetAssemblies().FirstOrDefault(a => AssemblyName.ReferenceMatchesDefinition(assembly, a.GetName())),
        typeResolver: null, throwOnError: false);
}
