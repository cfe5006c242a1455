using RavenLite.Indexing;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Database.Tests.Indexing;

public sealed class BadInputTests : IDisposable
{
    private readonly IndexingDatabase _db = new();

    public BadInputTests() => _db.Db.Put("carts/1", IndexingDatabase.SeedData, IndexingDatabase.SeedMetadata);

    public void Dispose() => _db.Dispose();

    private string[] IndexFolders() => [.. Directory.GetDirectories(Path.Combine(_db.Directory, "Indexes")).Select(Path.GetFileName).Order()!];

    [Fact]
    public void Unparseable_syntax_is_a_QueryException_quoting_the_query_and_the_position()
    {
        var ex = Assert.Throws<QueryException>(() => _db.Query(IndexingDatabase.ByEntityName, "Tag:Item AND (Tag:User"));

        Assert.Equal(13, ex.Position);
        Assert.Contains("'Tag:Item AND (Tag:User'", ex.Message, StringComparison.Ordinal);
        Assert.Contains("position 13", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void An_unknown_index_is_an_IndexNotFoundException()
    {
        var ex = Assert.Throws<IndexNotFoundException>(() => _db.Query("Orders/Totals", "Tag:Item"));
        Assert.Equal("Orders/Totals", ex.IndexName);
    }

    [Fact]
    public void Negative_start_or_page_size_is_an_ArgumentOutOfRangeException()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => _db.Db.Query(IndexingDatabase.ByEntityName, new IndexQuery { Start = -5 }));
        Assert.Throws<ArgumentOutOfRangeException>(() => _db.Db.Query(IndexingDatabase.ByEntityName, new IndexQuery { PageSize = -1 }));
    }

    [Theory]
    [InlineData("""{"Name": "NoFields", "Fields": []}""")]
    [InlineData("""{"Name": "BadPath", "Fields": [{"Name": "A", "Path": "items[3].id"}]}""")]
    [InlineData("""{"Name": "BadAnalysis", "Fields": [{"Name": "A", "Path": "a", "Analysis": "Snowball"}]}""")]
    [InlineData("""{"Name": "BadSort", "Fields": [{"Name": "A", "Path": "a", "Sort": "Float"}]}""")]
    [InlineData("""{"Name": "../../etc", "Fields": [{"Name": "A", "Path": "a"}]}""")]
    [InlineData("""{"Name": "a\\b", "Fields": [{"Name": "A", "Path": "a"}]}""")]
    [InlineData("""{"Name": "tab\there", "Fields": [{"Name": "A", "Path": "a"}]}""")]
    [InlineData("""{"Name": "Raven/DocumentsByEntityName", "Fields": [{"Name": "Tag", "Path": "x"}]}""")]
    public void An_invalid_definition_is_an_ArgumentException_and_stores_nothing(string json)
    {
        Assert.ThrowsAny<ArgumentException>(() => _db.Db.PutIndex(IndexDefinition.FromJson(json)));

        Assert.Equal([IndexingDatabase.ByEntityName], _db.Db.GetIndexes().Select(d => d.Name));
        Assert.Equal(["raven_2fdocumentsbyentityname"], IndexFolders());
        _db.Reopen();
        Assert.Equal([IndexingDatabase.ByEntityName], _db.Db.GetIndexes().Select(d => d.Name));
    }

    [Fact]
    public void The_built_in_index_cannot_be_deleted()
    {
        Assert.Throws<ArgumentException>(() => _db.Db.DeleteIndex(IndexingDatabase.ByEntityName));
        Assert.Equal(1, _db.Query(IndexingDatabase.ByEntityName, "Tag:Item").TotalResults);
    }

    [Theory]
    [InlineData(0, 10)]
    [InlineData(200, 100)]
    [InlineData(-1, 1024)]
    public void Bad_paging_options_are_refused_when_the_database_opens(int defaultPageSize, int maxPageSize)
    {
        var directory = Path.Combine(_db.Directory, "other");
        Assert.Throws<ArgumentOutOfRangeException>(() => new DocumentDatabase(new DocumentDatabaseOptions
        {
            DataDirectory = directory,
            DefaultPageSize = defaultPageSize == 0 ? 10 : defaultPageSize,
            MaxPageSize = defaultPageSize == 0 ? 0 : maxPageSize,
        }));
        using var opened = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = directory }); // nothing left locked
    }
}
