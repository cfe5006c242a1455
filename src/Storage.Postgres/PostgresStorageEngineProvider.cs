using RavenLite.Storage;
using RavenLite.Storage.Postgres;

[assembly: StorageEngineProvider(typeof(PostgresStorageEngineProvider))]

namespace RavenLite.Storage.Postgres;

/// <summary>Opens <see cref="PostgresStorageEngine"/> for <c>StorageEngineFactory</c>.</summary>
internal sealed class PostgresStorageEngineProvider : IStorageEngineProvider
{
    public StorageEngineKind Kind => StorageEngineKind.Postgres;

    public IStorageEngine Open(string folder, StorageOptions options) =>
        new PostgresStorageEngine(options.ConnectionString!);
}
