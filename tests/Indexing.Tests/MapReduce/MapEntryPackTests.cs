using System.Text.Json;
using Lucene.Net.Documents;
using Lucene.Net.Index;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.MapReduce;
using RavenLite.Indexing.Persistence;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.MapReduce;

/// <summary>
/// Map entries of up to <see cref="Reducer.PackSize"/> source documents share one Lucene document: changing, moving or
/// deleting one of them must leave the others of its pack counted once, and map-entry documents of the first layout
/// (one per source document) must still be read.
/// </summary>
public sealed class MapEntryPackTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public void Dispose() => _db.Dispose();

    private static Dictionary<string, JsonElement> Totals(QueryResult result) =>
        result.Results.ToDictionary(d => d.Data.GetProperty("Customer").GetString()!, d => d.Data);

    // The orders put, by key: their customer and lines.
    private readonly Dictionary<string, (string Customer, (int Price, int Quantity)[] Lines)> _orders = [];

    private void AssertTotals()
    {
        var expected = _orders.Values.SelectMany(o => o.Lines.Select(line => (o.Customer, line.Price, line.Quantity)))
            .GroupBy(x => x.Customer)
            .ToDictionary(g => g.Key, g => g.ToList());
        var actual = Totals(_db.Query("Orders/TotalsByCustomer", "*:*", pageSize: 100));
        Assert.Equal(expected.Keys.Order(), actual.Keys.Order());
        foreach (var (customer, lines) in expected)
        {
            Assert.Equal(lines.Count, actual[customer].GetProperty("Lines").GetInt32());
            Assert.Equal(lines.Sum(l => l.Price), actual[customer].GetProperty("Total").GetDecimal());
            Assert.Equal(lines.Min(l => l.Price), actual[customer].GetProperty("Cheapest").GetDecimal());
            Assert.Equal(lines.Max(l => l.Price), actual[customer].GetProperty("Dearest").GetDecimal());
            Assert.Equal(lines.Sum(l => l.Quantity), actual[customer].GetProperty("Items").GetDecimal());
        }
    }

    private void Put(string key, string customer, params (int Price, int Quantity)[] lines)
    {
        _orders[key] = (customer, lines);
        var json = JsonSerializer.Serialize(new { Customer = customer, Lines = lines.Select(l => new { l.Price, l.Quantity }) });
        _db.Put(key, json, "Order");
    }

    private void Delete(string key)
    {
        _orders.Remove(key);
        _db.Documents.Delete(key);
    }

    [Fact]
    public void Changing_moving_and_deleting_documents_of_a_pack_keeps_the_others_of_it_counted_once()
    {
        _db.Indexes.PutIndex(MapReduceTests.TotalsByCustomer);
        using (_db.Indexes.PauseIndexing())
        {
            // One batch: 70 documents, so packs of 32, 32 and 6.
            for (var i = 0; i < 70; i++)
                Put($"packed/{i}", $"c/{i % 3}", (i + 1, 1), (100 + i, 2));
        }
        AssertTotals();

        Put("packed/5", "c/0", (7, 1));                 // moves between groups; its pack mates stay
        Delete("packed/40");                                    // goes; the others of its pack stay
        Put("packed/69", "c/0", (1, 1));                // the customer's dearest line leaves: a recompute
        AssertTotals();

        _db.Reopen();
        using (_db.Indexes.PauseIndexing())
        {
            Put("packed/0", "c/2", (3, 3));             // two of one pack in one batch
            Put("packed/1", "c/2", (4, 4));
            Put("packed/64", "c/1", (5, 5));
        }
        AssertTotals();
    }

    [Fact]
    public void Map_entries_of_the_first_layout_one_document_each_are_read_and_replaced()
    {
        _db.Indexes.PutIndex(MapReduceTests.TotalsByCustomer);
        Put("old/1", "c/1", (10, 1), (2, 3));
        Put("old/2", "c/1", (7, 2));
        AssertTotals();
        _db.Close();
        // The index as the first layout wrote it: a map-entry document per source document, its key stored.
        var folder = Path.Combine(_db.IndexesDirectory, IndexName.ToFolderName(MapReduceTests.TotalsByCustomer.Name));
        using (var lucene = LuceneIndex.Open(folder, out var userData))
        {
            foreach (var (key, (_, lines)) in _orders)
            {
                var term = IndexFields.KeyTerm(key);
                lucene.Writer.DeleteDocuments(new Term(Reducer.SourceField, term));
                var rows = lines.Select(l => new MapRow(["c/1"], [l.Price, l.Quantity])).ToList();
                lucene.Writer.AddDocument(new Document
                {
                    new StringField(Reducer.SourceField, term, Field.Store.YES),
                    new StoredField("@mr.rows", MapRow.Write(rows)),
                    new StringField(Reducer.GroupField, "c/1", Field.Store.NO),
                });
            }
            lucene.Writer.SetCommitData(userData);
            lucene.Writer.Commit();
        }
        _db.Open();

        Put("old/1", "c/1", (5, 1));                    // its old rows are read and taken out; 10 was the dearest
        AssertTotals();
        Put("old/3", "c/1", (8, 1));
        Delete("old/2");
        AssertTotals();
    }
}
