using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Infrastructure;

/// <summary>
/// The seed scenario's documents: seed carts (<c>carts/{i}</c>, entity name Item) among small user documents
/// (<c>users/{i}</c>, entity name User), and the queries the benchmarks ask of them.
/// </summary>
internal static class SeedDataset
{
    /// <summary>Carts in the seed scenario: one page of the 2011 query.</summary>
    public const int Carts = 1024;

    /// <summary>Other documents in the seed scenario, so the query has something to leave out.</summary>
    public const int Others = 1024;

    /// <summary>The built-in index that answers <c>Tag:</c> queries.</summary>
    public const string Index = "Raven/DocumentsByEntityName";

    private static readonly DocumentContent s_otherData =
        DocumentContent.FromJson("""{"name": "someone", "email": "someone@example.com", "visits": 3}""");

    private static readonly DocumentContent s_otherMetadata = DocumentContent.FromJson("""{"Raven-Entity-Name": "User"}""");

    /// <summary>The 2011 query: every Item, one page of 1,024.</summary>
    public static IndexQuery SeedQuery { get; } = new() { Query = "Tag:Item", PageSize = 1024 };

    /// <summary>The cart keys <c>carts/0</c> to <c>carts/{count - 1}</c>.</summary>
    public static List<string> CartKeys(int count) => [.. Enumerable.Range(0, count).Select(i => $"carts/{i}")];

    /// <summary>Puts <paramref name="carts"/> seed carts and <paramref name="others"/> user documents, then waits for the index.</summary>
    public static void Load(DocumentDatabase database, int carts, int others)
    {
        var commands = Enumerable.Range(0, carts).Select(i => SeedCart.Put($"carts/{i}"))
            .Concat(Enumerable.Range(0, others).Select(i => BatchCommand.Put($"users/{i}", s_otherData, s_otherMetadata)));
        foreach (var batch in commands.Chunk(10_000))
            database.Batch(batch);
        WaitForIndex(database, carts);
    }

    /// <summary>Waits until the index has every write, and checks it finds <paramref name="carts"/> carts.</summary>
    public static void WaitForIndex(DocumentDatabase database, int carts)
    {
        // Ten million documents took 11 minutes to write and index on a loaded 2-core machine: a slower one must not time out.
        var ready = database.Query(Index, new IndexQuery
        {
            Query = "Tag:Item", PageSize = 0, WaitForNonStaleResults = true, Timeout = TimeSpan.FromHours(3),
        });
        if (ready.TotalResults != carts)
            throw new InvalidOperationException($"Expected {carts} carts, the index found {ready.TotalResults}.");
    }

    /// <summary>Sums each result's <c>cartId</c> and checks every cart was read: a wrong page fails the benchmark.</summary>
    public static long SumCartIds(IReadOnlyList<Document> results, int expectedCarts)
    {
        long sum = 0;
        foreach (var document in results)
            sum += document.Data.GetProperty("cartId").GetInt64();
        return results.Count == expectedCarts && sum == SeedCart.CartId * expectedCarts
            ? sum
            : throw new InvalidOperationException($"Wrong result: {results.Count} documents, cartId sum {sum}.");
    }
}
