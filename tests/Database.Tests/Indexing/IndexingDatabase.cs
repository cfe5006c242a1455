using RavenLite.Indexing;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>A database in a fresh temp folder (deleted on dispose) that can be closed and reopened, with its log captured.</summary>
internal sealed class IndexingDatabase : IDisposable
{
    public const string ByEntityName = "Raven/DocumentsByEntityName";
    private readonly List<string> _log = [];
    private readonly bool _cacheEnabled;

    public IndexingDatabase(bool cacheEnabled = true)
    {
        _cacheEnabled = cacheEnabled;
        Db = Open();
    }

    public string Directory { get; } = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));

    public DocumentDatabase Db { get; private set; }

    public IReadOnlyList<string> LogLines
    {
        get
        {
            lock (_log)
                return [.. _log];
        }
    }

    public static byte[] SeedBytes { get; } = File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "Data", "seed-cart.bson"));

    /// <summary>Bytes 0..32 of the seed: the metadata BSON, <c>{"Raven-Entity-Name":"Item"}</c>.</summary>
    public static DocumentContent SeedMetadata { get; } = DocumentContent.FromBson(SeedBytes.AsSpan(0, 33));

    /// <summary>Bytes 33..734 of the seed: the cart's data BSON.</summary>
    public static DocumentContent SeedData { get; } = DocumentContent.FromBson(SeedBytes.AsSpan(33));

    private DocumentDatabase Open() => new(new DocumentDatabaseOptions
    {
        DataDirectory = Directory,
        MapSize = 256L << 20,
        CacheSizeMb = _cacheEnabled ? null : 0,
        Log = line =>
        {
            lock (_log)
                _log.Add(line);
        },
    });

    public void Reopen(Action? whileClosed = null)
    {
        Db.Dispose();
        whileClosed?.Invoke();
        Db = Open();
    }

    public QueryResult Query(string index, string query, int? pageSize = null, int start = 0,
        IReadOnlyList<string>? sortBy = null, string? continuation = null) =>
        Db.Query(index, new IndexQuery
        {
            Query = query,
            PageSize = pageSize,
            Start = start,
            SortBy = sortBy,
            Continuation = continuation,
            WaitForNonStaleResults = true,
            Timeout = TimeSpan.FromSeconds(30),
        });

    public static DocumentContent Json(string json) => DocumentContent.FromJson(json);

    public static DocumentContent Entity(string name) => DocumentContent.FromJson($$"""{"Raven-Entity-Name":"{{name}}"}""");

    public void Dispose()
    {
        Db.Dispose();
        if (System.IO.Directory.Exists(Directory))
            System.IO.Directory.Delete(Directory, recursive: true);
    }
}
