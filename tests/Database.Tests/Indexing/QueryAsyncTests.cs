using RavenLite.Indexing;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>
/// <see cref="DocumentDatabase.PrepareQueryAsync"/> and <see cref="DocumentDatabase.RunQuery"/>:
/// the two calls a server makes, in one direction. Preparing waits without a thread and names the version that will
/// answer; running answers at that version, with the page's includes.
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
        Assert.Equal(new IndexVersion(result.Version.Generation, result.IndexEtag, result.IndexTimestamp, result.DatabaseEtag), result.Version);
        Assert.Equal(_db.Db.LastEtag, result.Version.DatabaseEtag);
    }

    [Fact]
    public async Task A_prepared_query_names_the_version_that_then_answers_it()
    {
        _db.Db.Put("items/1", DocumentContent.FromJson("""{"v":1}"""), s_item);

        var prepared = await _db.Db.PrepareQueryAsync(IndexingDatabase.ByEntityName, s_waited);
        var result = _db.Db.RunQuery(prepared);

        Assert.True(prepared.MayBeKept);
        Assert.Equal(IndexingDatabase.ByEntityName, prepared.IndexName);
        Assert.Equal(_db.Db.LastEtag, prepared.Version.IndexEtag);
        Assert.Equal(prepared.Version, result.Version);
        Assert.Equal("items/1", Assert.Single(result.Results).Key);
    }

    [Fact]
    public async Task After_a_write_a_new_preparation_names_a_new_version()
    {
        _db.Db.Put("items/1", DocumentContent.FromJson("""{"v":1}"""), s_item);
        var first = await _db.Db.PrepareQueryAsync(IndexingDatabase.ByEntityName, s_waited);
        _db.Db.Put("items/1", DocumentContent.FromJson("""{"v":2}"""), s_item);

        var second = await _db.Db.PrepareQueryAsync(IndexingDatabase.ByEntityName, s_waited);

        Assert.NotEqual(first.Version, second.Version);
        Assert.Equal(2, Assert.Single(_db.Db.RunQuery(second).Results).Data.GetProperty("v").GetInt32());
    }

    [Fact]
    public async Task A_stale_answer_may_not_be_kept()
    {
        using (_db.Db.Indexes.PauseIndexing())
        {
            _db.Db.Put("items/1", DocumentContent.FromJson("""{"v":1}"""), s_item);

            var prepared = await _db.Db.PrepareQueryAsync(IndexingDatabase.ByEntityName, new IndexQuery { Query = "Tag:Item" });

            Assert.True(prepared.Version.IsStale);
            Assert.False(prepared.MayBeKept);
            Assert.True(_db.Db.RunQuery(prepared).IsStale);
        }
    }

    [Fact]
    public async Task A_query_run_with_include_paths_returns_the_documents_its_page_refers_to()
    {
        _db.Db.Put("customers/1", DocumentContent.FromJson("""{"Name":"a"}"""), DocumentContent.FromJson("""{"Raven-Entity-Name":"Customer"}"""));
        _db.Db.Put("items/1", DocumentContent.FromJson("""{"Customer":"customers/1"}"""), s_item);
        _db.Db.Put("items/2", DocumentContent.FromJson("""{"Customer":"customers/404"}"""), s_item);

        var prepared = await _db.Db.PrepareQueryAsync(IndexingDatabase.ByEntityName, s_waited);
        var result = _db.Db.RunQuery(prepared, ["Customer"]);

        Assert.Equal(2, result.Results.Count);
        Assert.Equal("customers/1", Assert.Single(result.Includes).Key);
        Assert.Empty(_db.Db.RunQuery(prepared).Includes);
    }

    [Fact]
    public async Task A_bad_include_path_is_refused_before_the_query_runs()
    {
        var prepared = await _db.Db.PrepareQueryAsync(IndexingDatabase.ByEntityName, s_waited);

        Assert.Throws<ArgumentException>(() => _db.Db.RunQuery(prepared, ["Lines[.Id"]));
    }
}
