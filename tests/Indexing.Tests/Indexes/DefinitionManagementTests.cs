using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Indexes;

public sealed class DefinitionManagementTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public DefinitionManagementTests()
    {
        _db.Put("people/1", """{"name": "Oren", "age": 40}""", "Person");
        _db.Put("people/2", """{"name": "Ayende", "age": 35}""", "Person");
    }

    public void Dispose() => _db.Dispose();

    private string[] Folders() => [.. Directory.GetDirectories(_db.IndexesDirectory).Select(Path.GetFileName).Order()!];

    [Fact]
    public void Every_database_has_the_built_in_index()
    {
        var definition = Assert.Single(_db.Indexes.GetIndexDefinitions());
        Assert.Equal(BuiltInIndexes.DocumentsByEntityNameName, definition.Name);
        Assert.Equal(["raven_2fdocumentsbyentityname"], Folders());
    }

    [Fact]
    public void Put_get_list_and_delete_a_user_index()
    {
        Assert.True(_db.Indexes.PutIndex(TestDefinitions.Simple("People/ByName")));
        Assert.Equal(["Oren"], _db.Query("People/ByName", "Value:Oren").Results.Select(d => d.Data.GetProperty("name").GetString()));
        Assert.Equal("name", _db.Indexes.GetIndexDefinition("PEOPLE/BYNAME")!.Fields[0].Path);
        Assert.Equal(2, _db.Indexes.GetIndexDefinitions().Count);
        Assert.Contains("people_2fbyname", Folders());

        _db.Indexes.DeleteIndex("people/byname");

        Assert.Null(_db.Indexes.GetIndexDefinition("People/ByName"));
        Assert.DoesNotContain("people_2fbyname", Folders());
        Assert.Throws<IndexNotFoundException>(() => _db.Query("People/ByName", "Value:Oren"));
        _db.Reopen();
        Assert.Null(_db.Indexes.GetIndexDefinition("People/ByName"));
    }

    [Fact]
    public void Putting_the_same_definition_again_changes_nothing()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple("People/ByName"));
        _db.Query("People/ByName", "*:*");

        Assert.False(_db.Indexes.PutIndex(TestDefinitions.Simple("people/BYNAME")));

        Assert.Equal(2, _db.Indexes.GetStatistics("People/ByName").DocumentsIndexedSinceOpen);
    }

    [Fact]
    public void Changing_a_definition_rebuilds_that_index_only()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple("People/ByName"));
        Assert.Equal(1, _db.Query("People/ByName", "Value:Oren").TotalResults);

        _db.Indexes.PutIndex(TestDefinitions.Simple("People/ByName", path: "age", sort: "Long"));

        Assert.Equal(["people/1"], TestIndexes.Keys(_db.Query("People/ByName", "Value:[36 TO 50]")));
        Assert.Equal(2, _db.Indexes.GetStatistics("People/ByName").DocumentCount);
        Assert.Equal(2, _db.Indexes.GetStatistics(BuiltInIndexes.DocumentsByEntityNameName).DocumentsIndexedSinceOpen);
        _db.Reopen();
        Assert.Equal(FieldSort.Long, _db.Indexes.GetIndexDefinition("People/ByName")!.Fields[0].Sort);
        Assert.Equal(0, _db.Indexes.GetStatistics("People/ByName").DocumentsIndexedSinceOpen);
    }

    [Fact]
    public void Resetting_an_index_rebuilds_it_from_the_documents()
    {
        _db.Query(BuiltInIndexes.DocumentsByEntityNameName, "*:*");

        _db.Indexes.ResetIndex(BuiltInIndexes.DocumentsByEntityNameName);

        Assert.Equal(2, _db.Query(BuiltInIndexes.DocumentsByEntityNameName, "Tag:Person").TotalResults);
        Assert.Equal(2, _db.Indexes.GetStatistics(BuiltInIndexes.DocumentsByEntityNameName).DocumentsIndexedSinceOpen); // the new build
        Assert.Throws<IndexNotFoundException>(() => _db.Indexes.ResetIndex("nope"));
    }

    [Fact]
    public void The_built_in_index_cannot_be_changed_or_deleted()
    {
        var changed = new IndexDefinition
        {
            Name = "raven/documentsbyentityname",
            Fields = [new IndexFieldDefinition { Name = "Tag", Path = "x" }],
        };

        var put = Assert.Throws<ArgumentException>(() => _db.Indexes.PutIndex(changed));
        var delete = Assert.Throws<ArgumentException>(() => _db.Indexes.DeleteIndex(BuiltInIndexes.DocumentsByEntityNameName));
        var reserved = Assert.Throws<ArgumentException>(() => _db.Indexes.PutIndex(TestDefinitions.Simple("Raven/Mine")));

        Assert.Contains("cannot be changed", put.Message, StringComparison.Ordinal);
        Assert.Contains("cannot be deleted", delete.Message, StringComparison.Ordinal);
        Assert.Contains("built-in", reserved.Message, StringComparison.Ordinal);
        Assert.Equal("Raven-Entity-Name", _db.Indexes.GetIndexDefinition(BuiltInIndexes.DocumentsByEntityNameName)!.Fields[0].Path);
    }

    [Theory]
    [InlineData("../escape")]
    [InlineData("a\\b")]
    [InlineData("bad\u0007name")]
    [InlineData("")]
    public void An_invalid_definition_stores_nothing(string name)
    {
        var definition = new IndexDefinition { Name = name, Fields = [new IndexFieldDefinition { Name = "A", Path = "a" }] };
        Assert.ThrowsAny<ArgumentException>(() => _db.Indexes.PutIndex(definition));
        Assert.Throws<ArgumentException>(() => _db.Indexes.PutIndex(new IndexDefinition { Name = "NoFields", Fields = [] }));
        Assert.Throws<ArgumentException>(() => _db.Indexes.PutIndex(new IndexDefinition
        {
            Name = "BadPath",
            Fields = [new IndexFieldDefinition { Name = "A", Path = "a[1]" }],
        }));

        Assert.Single(_db.Indexes.GetIndexDefinitions());
        Assert.Equal(["raven_2fdocumentsbyentityname"], Folders());
        Assert.Equal(["Indexes", "lmdb"], Directory.GetDirectories(_db.Directory).Select(Path.GetFileName).Order());
        _db.Reopen();
        Assert.Single(_db.Indexes.GetIndexDefinitions());
    }

    [Fact]
    public void Deleting_an_unknown_index_is_a_not_found_error()
    {
        var ex = Assert.Throws<IndexNotFoundException>(() => _db.Indexes.DeleteIndex("Nope"));
        Assert.Equal("Nope", ex.IndexName);
        Assert.IsAssignableFrom<KeyNotFoundException>(ex);
    }
}
