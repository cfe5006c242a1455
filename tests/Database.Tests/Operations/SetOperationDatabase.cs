using Newtonsoft.Json.Linq;
using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Operations;

/// <summary>
/// A database in a fresh temp folder with <c>items/{i}</c> documents (<c>Group</c> = <c>g{i % 7}</c>, <c>N</c> = i)
/// and an index <c>Items/ByGroup</c> on <c>Group</c>.
/// </summary>
internal sealed class SetOperationDatabase : IDisposable
{
    public const string Index = "Items/ByGroup";
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));

    public SetOperationDatabase(int count, TimeProvider? time = null)
    {
        Db = new DocumentDatabase(new DocumentDatabaseOptions
        {
            DataDirectory = _dir, MapSize = 1L << 30, TimeProvider = time ?? TimeProvider.System,
        });
        Db.PutIndex(new IndexDefinition
        {
            Name = Index, Fields = [new IndexFieldDefinition { Name = "Group", Path = "Group" }],
        });
        Count = count;
        var metadata = DocumentContent.FromJObject(new JObject { ["Raven-Entity-Name"] = "Item" });
        for (var start = 0; start < count; start += 5_000)
        {
            Db.Batch([.. Enumerable.Range(start, Math.Min(5_000, count - start)).Select(i =>
                BatchCommand.Put(Key(i), DocumentContent.FromJObject(new JObject { ["Group"] = Group(i), ["N"] = i }), metadata))]);
        }
        WaitForIndex();
    }

    public DocumentDatabase Db { get; }

    public int Count { get; }

    public static string Key(int i) => $"items/{i}";

    public static string Group(int i) => $"g{i % 7}";

    public void WaitForIndex() => Db.WaitForNonStaleAsync(Index, TimeSpan.FromMinutes(2)).GetAwaiter().GetResult();

    public void Dispose()
    {
        Db.Dispose();
        if (Directory.Exists(_dir))
            Directory.Delete(_dir, recursive: true);
    }
}
