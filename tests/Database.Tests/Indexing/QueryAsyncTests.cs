using RavenLite.Indexing;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>
/// <see cref="DocumentDatabase.QueryAsync"/>: the one call a server makes. It waits without a thread, names the version
/// that answered, and skips loading the page when the caller says it already holds it at that version.
/// </summary>
public sealed class QueryAsyncTests : IDisposable
{
    private static readonly DocumentContent s_item = DocumentContent.FromJson("""{"Raven-Entity-Name":"Item"}""");
    private static readonly IndexQuery s_waited = new() { Query = "Tag:Item", WaitForNonStaleResults = true };
    private readonly IndexingDatabase _db = new();

    public void Dispose() => _db.Dispose();

    [Fact]
    public async Task A_waited_query_sees_the_writes_made_before_it_and_names_its_version()
    {
        _db.Db.Put("items/1", DocumentContent.FromJson("""{"v":1}"""), s_item);
        _db.Db.Put("items/2", DocumentContent.FromJson("""{"v":2}"""), s_item);

        var result = await _db.Db.QueryAsync(IndexingDatabase.ByEntityName, s_waited);

        Assert.Equal(2, result.Results.Count);
        Assert.False(result.AnswerKnown);
        Assert.Equal(new IndexVersion(result.Version.Generation, result.IndexEtag, result.IndexTimestamp, result.DatabaseEtag), result.Version);
        Assert.Equal(_db.Db.LastEtag, result.Version.DatabaseEtag);
    }

    [Fact]
    public async Task A_page_the_caller_already_holds_is_not_loaded()
    {
        _db.Db.Put("items/1", DocumentContent.FromJson("""{"v":1}"""), s_item);
        var first = await _db.Db.QueryAsync(IndexingDatabase.ByEntityName, s_waited);
        IndexVersion? asked = null;

        var second = await _db.Db.QueryAsync(IndexingDatabase.ByEntityName, s_waited, (name, version) =>
        {
            asked = version;
            return version == first.Version;
        });

        Assert.Equal(first.Version, asked);
        Assert.True(second.AnswerKnown);
        Assert.Empty(second.Results);
        Assert.Equal(1, second.TotalResults);
        Assert.Equal(0, second.Timings.CachedDocuments + second.Timings.StorageDocuments);
    }

    [Fact]
    public async Task After_a_write_the_version_moves_and_the_page_is_loaded_again()
    {
        _db.Db.Put("items/1", DocumentContent.FromJson("""{"v":1}"""), s_item);
        var first = await _db.Db.QueryAsync(IndexingDatabase.ByEntityName, s_waited);
        _db.Db.Put("items/1", DocumentContent.FromJson("""{"v":2}"""), s_item);

        var second = await _db.Db.QueryAsync(IndexingDatabase.ByEntityName, s_waited, (_, version) => version == first.Version);

        Assert.False(second.AnswerKnown);
        Assert.NotEqual(first.Version, second.Version);
        Assert.Equal(2, Assert.Single(second.Results).Data.GetProperty("v").GetInt32());
    }

    [Fact]
    public async Task A_stale_answer_is_never_offered_to_the_caller()
    {
        using (_db.Db.Indexes.PauseIndexing())
        {
            _db.Db.Put("items/1", DocumentContent.FromJson("""{"v":1}"""), s_item);
            var asked = false;

            var result = await _db.Db.QueryAsync(IndexingDatabase.ByEntityName, new IndexQuery { Query = "Tag:Item" }, (_, _) => asked = true);

            Assert.True(result.IsStale);
            Assert.False(asked);
            Assert.False(result.AnswerKnown);
        }
    }
}
