using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Issues;

/// <summary>
/// Issue 11: replacing or resetting an index that fails half-way leaves the old one serving (not a 404 until a
/// restart), and one index that cannot be opened never stops the database from opening.
/// </summary>
public sealed class IndexReplacementTests : IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "ravenlite-indexing-tests", Guid.NewGuid().ToString("N"));
    private readonly List<string> _log = [];
    private DocumentStore _documents = null!;
    private IndexStore _indexes = null!;
    private volatile bool _failResets;

    public IndexReplacementTests() => Open();

    private void Open()
    {
        _documents = DocumentStore.Open(new StorageOptions { DataDirectory = _directory, MapSize = 64L << 20 });
        _indexes = IndexStore.Open(_documents, new IndexingOptions
        {
            DataDirectory = _directory,
            Log = line =>
            {
                lock (_log)
                    _log.Add(line);
            },
            BeforeResetCommit = name =>
            {
                if (_failResets)
                    throw new IOException($"No space left on device (while resetting '{name}')");
            },
        });
    }

    private void Close()
    {
        _indexes.Dispose();
        _documents.Dispose();
    }

    public void Dispose()
    {
        Close();
        Directory.Delete(_directory, recursive: true);
    }

    private IReadOnlyList<string> Keys(string index, string query) => TestIndexes.Keys(_indexes.Query(index,
        new IndexQuery { Query = query, WaitForNonStaleResults = true, Timeout = TimeSpan.FromSeconds(30) }));

    private void PutPeople()
    {
        _indexes.PutIndex(TestDefinitions.Simple("People/ByName"));
        foreach (var (key, name) in new[] { ("people/1", "Oren"), ("people/2", "Ayende") })
            _documents.Put(key, DocumentContent.FromJson($$"""{"name": "{{name}}", "age": 40}"""));
    }

    [Fact]
    public void A_reset_that_fails_half_way_leaves_the_old_index_serving()
    {
        PutPeople();
        Assert.Equal(["people/1"], Keys("People/ByName", "Value:Oren"));
        _failResets = true;

        Assert.Throws<IOException>(() => _indexes.ResetIndex("People/ByName"));

        Assert.Equal(["people/1"], Keys("People/ByName", "Value:Oren"));
        _documents.Put("people/3", DocumentContent.FromJson("""{"name": "Oren"}"""));
        Assert.Equal(["people/1", "people/3"], Keys("People/ByName", "Value:Oren")); // and it keeps indexing
        _failResets = false;
        _indexes.ResetIndex("People/ByName");
        Assert.Equal(["people/1", "people/3"], Keys("People/ByName", "Value:Oren"));
    }

    [Fact]
    public void A_redefinition_that_fails_half_way_leaves_the_old_definition_serving_now_and_after_a_restart()
    {
        PutPeople();
        Keys("People/ByName", "*:*");
        _failResets = true;

        Assert.Throws<IOException>(() => _indexes.PutIndex(TestDefinitions.Simple("People/ByName", path: "age", sort: "Long")));

        Assert.Equal("name", _indexes.GetIndexDefinition("People/ByName")!.Fields[0].Path);
        Assert.Equal(["people/1"], Keys("People/ByName", "Value:Oren"));
        _failResets = false;
        Close();
        Open();
        Assert.Equal("name", _indexes.GetIndexDefinition("People/ByName")!.Fields[0].Path);
        Assert.Equal(["people/1"], Keys("People/ByName", "Value:Oren"));
    }

    [Fact]
    public void An_index_whose_folder_cannot_be_opened_is_rebuilt_and_the_database_opens()
    {
        PutPeople();
        Keys("People/ByName", "*:*");
        Close();
        var folder = Path.Combine(_directory, "Indexes", IndexName.ToFolderName("People/ByName"));
        Directory.Delete(folder, recursive: true);
        File.WriteAllText(folder, "a file where the index folder should be");

        Open();

        Assert.Equal(["people/1"], Keys("People/ByName", "Value:Oren"));
        Assert.Contains(_log, line => line.Contains("'People/ByName' could not be opened", StringComparison.Ordinal));
        Assert.True(Directory.Exists(folder));
    }
}
