using Newtonsoft.Json.Linq;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Database.Tests.Issues;

/// <summary>
/// Over a shared database another server may purge the tombstone of a delete this server's indexes have not seen yet
/// (it was down, or behind). Such an index can never learn of the delete from the feed, so it is rebuilt from the
/// documents. Here the other server's purge is made by hand while indexing is paused.
/// </summary>
public sealed class PurgedTombstonesRebuildIndexTests : IDisposable
{
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));
    private readonly List<string> _log = [];
    private readonly DocumentDatabase _db;

    public PurgedTombstonesRebuildIndexTests() =>
        _db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir, Log = line => { lock (_log) _log.Add(line); } });

    public void Dispose()
    {
        _db.Dispose();
        if (Directory.Exists(_dir))
            Directory.Delete(_dir, recursive: true);
    }

    private int Count(string index) => _db.Query(index, new IndexQuery
    {
        Query = "*:*", PageSize = 0, WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(1),
    }).TotalResults;

    private int Tallied() => _db.Query("Tallies/ByColour", new IndexQuery
    {
        Query = "*:*", WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(1),
    }).Results.Sum(result => result.Data.GetProperty("Count").GetInt32());

    [Fact]
    public void An_index_behind_a_purged_tombstone_is_rebuilt_and_drops_the_deleted_document()
    {
        _db.PutIndex(IndexDefinition.FromJson("""{"Name": "Tallies/ByKey", "EntityName": "Tally", "Fields": [{"Name": "Colour", "Path": "Colour"}]}"""));
        _db.PutIndex(IndexDefinition.FromJson("""
            {"Name": "Tallies/ByColour", "EntityName": "Tally", "Fields": [{"Name": "Colour", "Path": "Colour"}],
             "Reduce": {"GroupBy": ["Colour"], "Aggregates": [{"Name": "Count", "Function": "Count"}]}}
            """));
        for (var i = 0; i < 3; i++)
            _db.Put($"tallies/{i}", new JObject { ["Colour"] = "red" }, new JObject { [MetadataNames.EntityName] = "Tally" });
        Assert.Equal(3, Count("Tallies/ByKey"));
        Assert.Equal(3, Tallied());

        using (_db.Indexes.PauseIndexing())
        {
            _db.Delete("tallies/1");
            Assert.Equal(1, _db.Documents.PurgeTombstones(long.MaxValue));
        }

        Assert.Equal(2, Count("Tallies/ByKey"));
        Assert.Equal(2, Tallied());
        lock (_log)
            Assert.Contains(_log, line => line.Contains("'Tallies/ByKey'", StringComparison.Ordinal) && line.Contains("rebuilding", StringComparison.Ordinal));
    }
}
