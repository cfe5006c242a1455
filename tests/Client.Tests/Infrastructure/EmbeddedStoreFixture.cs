using RavenLite.Database;
using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

namespace RavenLite.Client.Tests.Infrastructure;

/// <summary>An embedded database in a temp folder (deleted on dispose) and a store that owns it.</summary>
public sealed class EmbeddedStoreFixture : StoreFixture
{
    private readonly string _directory;

    private EmbeddedStoreFixture(RavenStore store, string directory) : base(store) => _directory = directory;

    public static EmbeddedStoreFixture Start()
    {
        var directory = Path.Combine(Path.GetTempPath(), "ravenlite-client-tests", Guid.NewGuid().ToString("N"));
        return new EmbeddedStoreFixture(
            RavenStore.OpenEmbedded(new DocumentDatabaseOptions { DataDirectory = directory, MapSize = 64L << 20 }), directory);
    }

    private DocumentDatabase Database => Store.Database!;

    public override RavenStore OpenAnotherStore(StoreConventions? conventions = null) => RavenStore.ForDatabase(Database, conventions);

    public override Task PutIndexAsync(string name, string definitionJson)
    {
        var definition = IndexDefinition.FromJson(definitionJson);
        Assert.Equal(name, definition.Name);
        Database.PutIndex(definition);
        return Task.CompletedTask;
    }

    public override Task PutRawAsync(string key, string json, string? entityName, string? clrType = null)
    {
        var metadata = new Newtonsoft.Json.Linq.JObject();
        if (entityName is not null)
            metadata["Raven-Entity-Name"] = entityName;
        if (clrType is not null)
            metadata["Raven-Clr-Type"] = clrType;
        Database.Put(key, DocumentContent.FromJson(json), DocumentContent.FromJObject(metadata));
        return Task.CompletedTask;
    }

    public override ValueTask DisposeAsync()
    {
        Store.Dispose();
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
        return ValueTask.CompletedTask;
    }
}
