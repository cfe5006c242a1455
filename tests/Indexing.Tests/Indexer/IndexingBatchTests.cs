using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Indexer;

/// <summary>What a batch of the etag feed holds, read for indexes that read JSON and for those that read only headers.</summary>
public sealed class IndexingBatchTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public void Dispose() => _db.Dispose();

    [Fact]
    public void Only_an_index_with_a_field_outside_the_header_reads_documents_JSON()
    {
        Assert.False(new CompiledIndex(BuiltInIndexes.DocumentsByEntityName).ReadsJson);
        Assert.True(new CompiledIndex(TestDefinitions.CartsByProduct).ReadsJson);
        Assert.True(new CompiledIndex(IndexDefinition.FromJson(
            """{"Name": "ByCustomMetadata", "Fields": [{"Name": "Owner", "Path": "Owner", "Source": "Metadata"}]}""")).ReadsJson);
    }

    [Fact]
    public void A_batch_read_for_headers_carries_key_etag_entity_name_and_time_but_no_JSON()
    {
        using (_db.Indexes.PauseIndexing())
        {
            _db.Put("Carts/1", """{"cartId": 1}""", "Item");
            _db.Put("carts/2", """{"cartId": 2}""");
            _db.Documents.Delete("carts/2");
            _db.Put("carts/3", """{"cartId": 3}""", "Item");
        }
        var last = _db.Documents.LastEtag;

        using var headers = IndexingBatch.Read(_db.Documents, 0, last, 100, json: false);
        using var full = IndexingBatch.Read(_db.Documents, 0, last, 100, json: true);

        Assert.Equal(last, headers.UpToEtag);
        Assert.Equal(full.Items.Select(i => (i.Etag, i.Key, i.Document is null)), headers.Items.Select(i => (i.Etag, i.Key, i.Document is null)));
        Assert.Equal(full.Items.Select(i => i.Document?.Header), headers.Items.Select(i => i.Document?.Header));
        var cart = headers.Items[0].Document!;
        Assert.Equal(("Carts/1", "Item"), (cart.Key, cart.Header.EntityName));
        Assert.Throws<InvalidOperationException>(() => cart.Data);
        Assert.Equal(1, full.Items[0].Document!.Data.GetProperty("cartId").GetInt32());
    }
}
