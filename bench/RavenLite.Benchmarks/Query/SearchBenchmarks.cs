using System.Text;
using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Query;

/// <summary>
/// Issue 32's search: a full-text index over <see cref="DocumentCount"/> documents of about 30 words each (a fixed
/// pseudo-random text over a 5,000-word vocabulary, skewed so a few words are common and most are rare). The first
/// page (20) of a two-word query, scored (BM25) and unscored (constant score, index order) for comparison, and the
/// scored page with its 20 hits highlighted; the highlighting's own cost is the difference of the last two.
/// </summary>
[MemoryDiagnoser]
public class SearchBenchmarks : IDisposable
{
    /// <summary>100,000 here; <see cref="MillionSearchBenchmarks"/> runs the same cases over a million, when named.</summary>
    protected virtual int DocumentCount => 100_000;

    private const string IndexName = "Search/Texts";
    private const int Vocabulary = 5_000;
    private const string Terms = "Body:(w40 w900)";

    private static readonly IndexQuery s_scored = new() { Query = Terms, PageSize = 20, OrderByScore = true };
    private static readonly IndexQuery s_unscored = new() { Query = Terms, PageSize = 20 };
    private static readonly IndexQuery s_highlighted = new()
    {
        Query = Terms, PageSize = 20, OrderByScore = true, Highlight = new HighlightOptions { Fields = ["Body"], FragmentCount = 1, FragmentLength = 100 },
    };

    private BenchmarkDatabase _database = null!;

    [GlobalSetup]
    public void Setup()
    {
        _database = new BenchmarkDatabase(cacheEnabled: true);
        var database = _database.Database;
        database.PutIndex(IndexDefinition.FromJson($$"""
            {"Name": "{{IndexName}}", "Fields": [{"Name": "Body", "Path": "body", "Analysis": "FullText"}]}
            """));
        var random = new Random(32);
        var metadata = DocumentContent.FromJson("""{"Raven-Entity-Name": "Text"}""");
        var text = new StringBuilder();
        foreach (var batch in Enumerable.Range(0, DocumentCount).Chunk(10_000))
        {
            database.Batch([.. batch.Select(i =>
            {
                text.Clear();
                for (var w = 0; w < 30; w++)
                {
                    // Skewed: the square of a uniform number favours small word numbers (common words).
                    var u = random.NextDouble();
                    text.Append('w').Append((int)(u * u * Vocabulary)).Append(' ');
                }
                return BatchCommand.Put($"texts/{i}", DocumentContent.FromJson($$"""{"body": "{{text}}"}"""), metadata);
            })]);
        }
        var ready = database.Query(IndexName, new IndexQuery { PageSize = 0, WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(30) });
        if (ready.TotalResults != DocumentCount)
            throw new InvalidOperationException($"The index has {ready.TotalResults} documents, not {DocumentCount}.");
        var matches = database.Query(IndexName, s_scored).TotalResults;
        Console.WriteLine($"// {Terms} matches {matches} of {DocumentCount} documents");
        database.Query(IndexName, s_highlighted); // the page's documents into the cache
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _database?.Dispose();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "unscored (index order), first page of 20")]
    public int Unscored() => Run(_database.Database, s_unscored);

    [Benchmark(Description = "scored (BM25), first page of 20")]
    public int Scored() => Run(_database.Database, s_scored);

    [Benchmark(Description = "scored, first page of 20, highlighted")]
    public int ScoredHighlighted() => Run(_database.Database, s_highlighted);

    private static int Run(DocumentDatabase database, IndexQuery query)
    {
        var result = database.Query(IndexName, query);
        return result.Results.Count == 20 ? result.TotalResults : throw new InvalidOperationException($"{result.Results.Count} results.");
    }
}
