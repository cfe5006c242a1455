using Lucene.Net.Analysis.Core;
using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Store;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Querying;

namespace RavenLite.Indexing.Tests.Querying;

/// <summary>An aggregate walks every match, so it stops when its query is cancelled, as the page's search does.</summary>
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
}
