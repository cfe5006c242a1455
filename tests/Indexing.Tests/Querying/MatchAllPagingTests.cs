using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Querying;

/// <summary><c>*:*</c> pages are read straight from the segments' live docs; with deletions and several segments they still cover each document once.</summary>
public sealed class MatchAllPagingTests : IDisposable
{
    private readonly TestIndexes _db = new(batchSize: 37);

    public void Dispose() => _db.Dispose();

    [Fact]
    public void Start_windows_over_segments_with_deletions_cover_each_live_document_once_in_index_order()
    {
        var metadata = DocumentContent.FromJson("""{"Raven-Entity-Name":"Thing"}""");
        _db.Documents.Batch([.. Enumerable.Range(0, 400).Select(i => BatchCommand.Put($"things/{i}", DocumentContent.FromJson("{}"), metadata))]);
        _db.Query(TestDefinitions.ByEntityName, "*:*", pageSize: 0);
        foreach (var i in Enumerable.Range(0, 400).Where(i => i % 7 == 3 || (i > 100 && i < 140)))
            _db.Documents.Delete($"things/{i}");
        _db.Put("things/3", "{}", "Thing"); // deleted, then back at the end
        var expected = Enumerable.Range(0, 400).Where(i => !(i % 7 == 3 || (i > 100 && i < 140))).Select(i => $"things/{i}")
            .Append("things/3").ToList();

        foreach (var pageSize in new[] { 1, 13, 50, 128 })
        {
            var seen = new List<string>();
            for (var start = 0; start < expected.Count; start += pageSize)
            {
                var page = _db.Query(TestDefinitions.ByEntityName, "*:*", pageSize: pageSize, start: start);
                Assert.Equal(expected.Count, page.TotalResults);
                seen.AddRange(TestIndexes.Keys(page));
            }
            Assert.Equal(expected, seen);
        }
        Assert.Empty(TestIndexes.Keys(_db.Query(TestDefinitions.ByEntityName, "*:*", start: expected.Count)));
    }
}
