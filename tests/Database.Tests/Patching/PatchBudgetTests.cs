using System.Diagnostics;
using Newtonsoft.Json.Linq;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Patching;

/// <summary>
/// A patch is checked after every operation (issue 30): one that would grow the document past 16 MiB, do too much
/// work or have too many operations is refused with a <see cref="LimitExceededException"/> soon, and nothing is written.
/// </summary>
public sealed class PatchBudgetTests : IDisposable
{
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));
    private readonly DocumentDatabase _db;

    public PatchBudgetTests() => _db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir });

    public void Dispose()
    {
        _db.Dispose();
        if (Directory.Exists(_dir))
            Directory.Delete(_dir, recursive: true);
    }

    private static string Repeat(string operation, int times) => "[" + string.Join(",", Enumerable.Repeat(operation, times)) + "]";

    /// <summary>Refused within a bound for a busy machine (the unbounded patch ran for minutes and took gigabytes), writing nothing.</summary>
    private LimitExceededException RefusedQuickly(string key, string patch)
    {
        var before = _db.Get(key)!.Etag;
        var watch = Stopwatch.StartNew();
        var ex = Assert.Throws<LimitExceededException>(() => _db.Patch(key, DocumentPatch.Parse(patch)));
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(10), $"refused after {watch.Elapsed}");
        Assert.Equal(before, _db.Get(key)!.Etag);
        return ex;
    }

    [Fact]
    public void The_copy_bomb_from_the_issue_is_refused_by_the_work_limit()
    {
        _db.Put("bomb/1", DocumentContent.FromJson("""{"a":[1]}"""));

        var ex = RefusedQuickly("bomb/1", Repeat("""{"op":"copy","from":"/a","path":"/a/-"}""", 40));

        // Each copy doubles the array: the million values copied are reached before 16 MiB of BSON.
        Assert.Equal(nameof(PatchBudget.MaxWorkValues), ex.Limit);
        Assert.Contains("1,000,000 JSON values", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Copies_of_an_object_into_itself_are_refused_by_the_work_limit()
    {
        _db.Put("bomb/2", DocumentContent.FromJson("""{"a":{"x":1}}"""));

        var ex = RefusedQuickly("bomb/2", "[" + string.Join(",", Enumerable.Range(0, 40).Select(i => $$"""{"op":"copy","from":"/a","path":"/a/k{{i}}"}""")) + "]");

        Assert.Equal(nameof(PatchBudget.MaxWorkValues), ex.Limit);
    }

    [Fact]
    public void Copies_of_a_large_added_value_are_refused_by_the_document_limit()
    {
        _db.Put("bomb/3", DocumentContent.FromJson("""{"a":1}"""));
        var big = new string('x', 1024 * 1024);

        var ex = RefusedQuickly("bomb/3", $$"""[{"op":"add","path":"/list","value":["{{big}}"]},""" +
            string.Join(",", Enumerable.Repeat("""{"op":"copy","from":"/list/0","path":"/list/-"}""", 20)) + "]");

        Assert.Equal(nameof(PatchBudget.MaxDocumentBytes), ex.Limit);
    }

    [Fact]
    public void Copying_and_removing_a_large_member_over_and_over_is_refused_by_the_work_limit()
    {
        _db.Put("bomb/4", new JObject { ["big"] = new string('x', 6 * 1024 * 1024) });

        var ex = RefusedQuickly("bomb/4", Repeat("""{"op":"copy","from":"/big","path":"/c"},{"op":"remove","path":"/c"}""", 100));

        Assert.Equal(nameof(PatchBudget.MaxWorkBytes), ex.Limit);
    }

    [Fact]
    public void A_patch_with_more_than_1024_operations_is_refused_when_parsed()
    {
        var ex = Assert.Throws<LimitExceededException>(() => DocumentPatch.Parse(Repeat("""{"op":"test","path":"/a","value":1}""", 1025)));
        Assert.Equal(nameof(PatchBudget.MaxOperations), ex.Limit);
        _ = DocumentPatch.Parse(Repeat("""{"op":"test","path":"/a","value":1}""", 1024));
    }

    [Fact]
    public void A_patch_that_grows_and_shrinks_within_the_limit_applies()
    {
        _db.Put("fine/1", new JObject { ["big"] = new string('x', 5 * 1024 * 1024) });

        // Estimated, the three copies pass 16 MiB; measured after the removes, the document is 10 MiB.
        _db.Patch("fine/1", DocumentPatch.Parse("""
            [{"op":"copy","from":"/big","path":"/c1"},{"op":"remove","path":"/c1"},
             {"op":"copy","from":"/big","path":"/c2"},{"op":"remove","path":"/c2"},
             {"op":"copy","from":"/big","path":"/c3"}]
            """));

        Assert.NotNull(_db.Get("fine/1"));
    }
}
