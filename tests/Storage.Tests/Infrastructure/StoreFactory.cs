using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Tests.Infrastructure;

public static class StoreFactory
{
    public static DocumentStore Open(StorageEngineKind engine, string directory, long? mapSize = null) =>
        DocumentStore.Open(new StorageOptions
        {
            DataDirectory = directory,
            Engine = engine,
            MapSize = mapSize ?? StorageOptions.DefaultMapSize,
        });

    public static DocumentContent Json(string json) => DocumentContent.FromJson(json);

    public static DocumentContent Entity(string name) => DocumentContent.FromJson($$"""{"Raven-Entity-Name":"{{name}}"}""");
}
