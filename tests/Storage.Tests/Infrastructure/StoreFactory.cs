using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Tests.Infrastructure;

internal static class StoreFactory
{
    public static DocumentStore Open(StorageEngineKind engine, string directory, long? mapSize = null,
        bool cacheEnabled = true, long? cacheSizeBytes = null) =>
        DocumentStore.Open(new StorageOptions
        {
            DataDirectory = directory,
            Engine = engine,
            MapSize = mapSize ?? StorageOptions.DefaultMapSize,
            CacheEnabled = cacheEnabled,
            CacheSizeBytes = cacheSizeBytes ?? StorageOptions.DefaultCacheSizeBytes,
            ConnectionString = ConnectionStringFor(engine, directory),
        });

    /// <summary>For PostgreSQL, a schema of the folder's own; null for the engines that keep everything in the folder.</summary>
    public static string? ConnectionStringFor(StorageEngineKind engine, string directory) =>
        engine == StorageEngineKind.Postgres ? TestPostgres.ForDirectory(directory) : null;

    public static DocumentContent Json(string json) => DocumentContent.FromJson(json);

    public static DocumentContent Entity(string name) => DocumentContent.FromJson($$"""{"Raven-Entity-Name":"{{name}}"}""");

    /// <summary>Puts the seed cart under <paramref name="key"/>.</summary>
    public static PutResult PutSeedCart(this DocumentStore store, string key) =>
        store.Put(key, DocumentContent.FromBson(SeedCart.Data), DocumentContent.FromBson(SeedCart.Metadata));
}
