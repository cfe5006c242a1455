using Lucene.Net.Analysis.Core;
using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Store;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Querying;

namespace RavenLite.Indexing.Tests.Querying;

/// <summary>Aggregates read from doc values, against LINQ to Objects over the same values; and cancellation.</summary>
public sealed class FieldAggregatorTests
{
    private static readonly CompiledIndex s_index = new(new IndexDefinition
    {
        Name = "Orders/Totals",
        Fields = [new IndexFieldDefinition { Name = "Total", Path = "Total", Analysis = FieldAnalysis.Typed }],
    });

    [Fact]
    public void Aggregate_of_a_cancelled_query_throws_OperationCanceledException()
    {
        using var directory = new RAMDirectory();
        using (var writer = new IndexWriter(directory, new IndexWriterConfig(LuceneSettings.Version, new KeywordAnalyzer())))
        {
            for (var i = 0; i < 100; i++)
                writer.AddDocument([new NumericDocValuesField("Total@num", BitConverter.DoubleToInt64Bits(i))]);
        }
        using var reader = DirectoryReader.Open(directory);
        var searcher = new IndexSearcher(reader);
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();

        Assert.Throws<OperationCanceledException>(() =>
            FieldAggregator.Run(searcher, new MatchAllDocsQuery(), "Total@num", sum: true, s_index, cancelled.Token));
        var total = FieldAggregator.Run(searcher, new MatchAllDocsQuery(), "Total@num", sum: true, s_index, CancellationToken.None);
        Assert.Equal(100, total.Count);
        Assert.Equal(4950, total.Sum);
    }

    [Theory]
    [InlineData(28)]
    [InlineData(4711)]
    public void Exact_decimal_count_sum_min_and_max_answer_as_LINQ_over_many_segments_and_filters(int seed)
    {
        var random = new Random(seed);
        decimal[] extremes = [decimal.MinValue, decimal.MaxValue, 0m, -0.0001m, 0.0001m, 79228162514264337593543950.335m];
        var values = new List<(int Group, decimal? Total)>();
        using var directory = new RAMDirectory();
        using (var writer = new IndexWriter(directory, new IndexWriterConfig(LuceneSettings.Version, new KeywordAnalyzer()) { MergePolicy = NoMergePolicy.COMPOUND_FILES }))
        {
            for (var segment = 0; segment < 6; segment++)
            {
                // Segments of different sizes, one of them with no decimals at all.
                for (var i = 0; i < random.Next(0, 300); i++)
                {
                    var group = random.Next(10);
                    decimal? total = segment == 2 || random.Next(8) == 0 ? null
                        : random.Next(10) == 0 ? extremes[random.Next(extremes.Length)]
                        : Math.Round((decimal)(random.NextDouble() * 2_000 - 1_000), random.Next(0, 5));
                    values.Add((group, total));
                    var document = new Document { new StringField("Group", group.ToString(System.Globalization.CultureInfo.InvariantCulture), Field.Store.NO) };
                    if (total is { } value)
                        document.Add(new SortedDocValuesField("Total@dec", new Lucene.Net.Util.BytesRef(TypedValues.EncodeDecimal(value))));
                    writer.AddDocument(document);
                }
                writer.Commit();
            }
        }
        using var reader = DirectoryReader.Open(directory);
        Assert.True(reader.Leaves.Count >= 5);
        var searcher = new IndexSearcher(reader);
        for (var filter = 0; filter < 40; filter++)
        {
            var groups = Enumerable.Range(0, 10).Where(_ => random.Next(3) == 0).ToHashSet();
            var query = new BooleanQuery();
            foreach (var group in groups)
                query.Add(new TermQuery(new Term("Group", group.ToString(System.Globalization.CultureInfo.InvariantCulture))), Occur.SHOULD);
            var expected = values.Where(v => groups.Contains(v.Group) && v.Total is not null).Select(v => v.Total!.Value).ToList();

            var extremesOnly = FieldAggregator.Run(searcher, query, "Total@dec", sum: false, s_index);
            var withSum = FieldAggregator.Run(searcher, query, "Total@dec", sum: true, s_index);

            foreach (var aggregate in new[] { extremesOnly, withSum })
            {
                Assert.Equal(expected.Count, aggregate.Count);
                Assert.Equal(expected.Count == 0 ? null : expected.Min(), aggregate.ExactMin);
                Assert.Equal(expected.Count == 0 ? null : expected.Max(), aggregate.ExactMax);
            }
            Assert.Null(extremesOnly.ExactSum);
            // Overflow and rounding depend on the order of the additions, which differs (ordinals, not documents): with
            // values near decimal's limits either side may overflow where the other does not, and sums of 29 digits
            // round their last digit; otherwise the sums are equal.
            decimal? linqSum;
            try
            {
                linqSum = expected.Sum();
            }
            catch (OverflowException)
            {
                linqSum = null;
            }
            if (!expected.Any(v => Math.Abs(v) > 1e20m))
                Assert.Equal(linqSum, withSum.ExactSum);
            else if (linqSum is { } linq && withSum.ExactSum is { } exact)
                Assert.True(Math.Abs(linq - exact) <= Math.Max(Math.Abs(linq), 1m) / 1e26m * expected.Count, $"{linq} against {exact}");
        }
    }
}
