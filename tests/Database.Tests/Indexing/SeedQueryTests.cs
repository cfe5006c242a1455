using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>The 2011 scenario: 1,024 seed carts tagged Item among 1,024 other documents.</summary>
public sealed class SeedQueryTests : IDisposable
{
    private readonly IndexingDatabase _db = new();

    public SeedQueryTests()
    {
        var commands = new List<BatchCommand>(2048);
        for (var i = 0; i < 1024; i++)
        {
            commands.Add(BatchCommand.Put($"carts/{i}", IndexingDatabase.SeedData, IndexingDatabase.SeedMetadata));
            commands.Add(BatchCommand.Put($"users/{i}", IndexingDatabase.Json($$"""{"name":"user {{i}}"}"""), IndexingDatabase.Entity("User")));
        }
        _db.Db.Batch(commands);
    }

    public void Dispose() => _db.Dispose();

    [Fact]
    public void Tag_query_with_page_size_1024_returns_exactly_the_1024_carts()
    {
        var result = _db.Query(IndexingDatabase.ByEntityName, "Tag:Item", pageSize: 1024);

        Assert.Equal(1024, result.TotalResults);
        Assert.Equal(1024, result.Results.Count);
        Assert.Equal(0, result.SkippedResults);
        Assert.False(result.PageSizeClamped);
        Assert.False(result.IsStale);
        Assert.Null(result.Continuation);
        Assert.Equal(Enumerable.Range(0, 1024).Select(i => $"carts/{i}").Order(), result.Results.Select(d => d.Key).Order());
        Assert.All(result.Results, d =>
        {
            Assert.Equal("Item", d.EntityName);
            Assert.Equal(666, d.Data.GetProperty("cartId").GetInt32());
        });
    }

    [Fact]
    public void The_other_tag_returns_the_other_documents()
    {
        var result = _db.Query(IndexingDatabase.ByEntityName, "Tag:User", pageSize: 1024);

        Assert.Equal(1024, result.TotalResults);
        Assert.All(result.Results, d => Assert.StartsWith("users/", d.Key, StringComparison.Ordinal));
        Assert.Equal(1024, result.Results.Select(d => d.Key).Distinct().Count());
    }

    [Fact]
    public void Tags_are_exact_and_case_sensitive()
    {
        Assert.Equal(0, _db.Query(IndexingDatabase.ByEntityName, "Tag:item").TotalResults);
        Assert.Equal(2048, _db.Query(IndexingDatabase.ByEntityName, "Tag:Item OR Tag:User", pageSize: 0).TotalResults);
    }

    [Fact]
    public void A_user_index_over_the_product_ids_of_the_carts()
    {
        _db.Db.PutIndex(RavenLite.Indexing.Definitions.IndexDefinition.FromJson("""
            {"Name": "Carts/ByProduct", "Fields": [{"Name": "ProductId", "Path": "itemList[].productId"},
                                                   {"Name": "Price", "Path": "itemList[].price", "Sort": "Double"}]}
            """));

        Assert.Equal(1024, _db.Query("Carts/ByProduct", "ProductId:42", pageSize: 0).TotalResults);
        Assert.Equal(1024, _db.Query("Carts/ByProduct", "Price:[6 TO 7]", pageSize: 0).TotalResults);
        Assert.Equal(0, _db.Query("Carts/ByProduct", "Price:{6.66 TO 7]", pageSize: 0).TotalResults);
        Assert.Equal(0, _db.Query("Carts/ByProduct", "ProductId:43", pageSize: 0).TotalResults);
    }
}
