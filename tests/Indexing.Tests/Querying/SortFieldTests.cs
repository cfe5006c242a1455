using Lucene.Net.Analysis.Core;
using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Store;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Querying;

namespace RavenLite.Indexing.Tests.Querying;

/// <summary>Sorts by a typed field's strings, by code point or by collated sort keys, refused where the field holds numbers.</summary>
public sealed class SortFieldTests
{
    private static readonly CompiledIndex s_index = new(new IndexDefinition
    {
        Name = "People/ByRank",
        Fields = [new IndexFieldDefinition { Name = "Rank", Path = "Rank", Analysis = FieldAnalysis.Typed }],
    });

    [Theory]
    [InlineData("Rank")]
    [InlineData("-Rank@col")]
    public void Sorting_the_strings_of_a_typed_field_holding_numbers_throws_ArgumentException_naming_the_number_kinds(string sortBy)
    {
        using var directory = new RAMDirectory();
        using (var writer = new IndexWriter(directory, new IndexWriterConfig(LuceneSettings.Version, new KeywordAnalyzer())))
            writer.AddDocument([new DoubleField("Rank" + TypedValues.Number, 3, Field.Store.NO)]);
        using var reader = DirectoryReader.Open(directory);
        var sort = SortField.Parse([sortBy], s_index);

        var refused = Assert.Throws<ArgumentException>(() => SortField.ThrowIfTextSortMisplacesNumbers(sort, s_index, reader));
        Assert.Contains("Rank@num", refused.Message, StringComparison.Ordinal);
        SortField.ThrowIfTextSortMisplacesNumbers(SortField.Parse(["Rank@num"], s_index), s_index, reader);
    }
}
