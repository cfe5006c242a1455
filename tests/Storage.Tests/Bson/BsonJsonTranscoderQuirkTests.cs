using System.Buffers;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.BsonBytes;

namespace RavenLite.Storage.Tests.Bson;

/// <summary>
/// What the old reader did with BSON that validation lets through but is odd, kept as it was; and the limits
/// the new read path keeps on input that lies about its lengths.
/// </summary>
public sealed class BsonJsonTranscoderQuirkTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void An_old_binary_whose_inner_length_disagrees_reads_as_before()
    {
        // Subtype 2 repeats its length inside; the old reader went by the inner one and read the rest of the
        // outer bytes as elements. Validation accepted it, so such documents can be stored.
        var bson = One(BsonType.Binary, [.. I32(7), 2, .. I32(0), BsonType.Null, (byte)'x', 0]);
        DocumentContent.FromBson(bson);
        Transcoding.AssertSameAsOld(bson);
        Assert.Equal("""{"v":"","x":null}""", Transcoding.New(bson).Text);
    }

    [Fact]
    public void Code_with_scope_ends_where_the_old_reader_ended_it()
    {
        // The first object to end inside the scope, even a nested one, ended the scope and the code object.
        byte[] Scope(params byte[][] elements) => One(BsonType.CodeWithScope, [.. I32(0), .. Str("f()"), .. Doc(elements)]);
        Transcoding.AssertSameAsOld(Scope(El(BsonType.Document, "a", Doc()), El(BsonType.Int32, "b", I32(7))));
        Transcoding.AssertSameAsOld(Scope(El(BsonType.DbPointer, "r", [.. Str("c"), .. new byte[12]]), El(BsonType.Int32, "b", I32(7))));
        Transcoding.AssertSameAsOld(Doc(El(BsonType.Array, "list", Arr((BsonType.CodeWithScope, [.. I32(0), .. Str("f()"), .. Doc(El(BsonType.DbPointer, "r", [.. Str("c"), .. new byte[12]]))])))));
        Transcoding.AssertSameAsOld(Scope(El(BsonType.CodeWithScope, "inner", [.. I32(0), .. Str("g()"), .. Doc(El(BsonType.Document, "a", Doc()))])));
    }

    [Theory]
    [InlineData(int.MaxValue)]
    [InlineData(int.MinValue)]
    [InlineData(1_000_000_000)]
    public void A_length_running_past_the_input_allocates_nothing_for_it(int length)
    {
        byte[][] lies =
        [
            One(BsonType.String, [.. I32(length), .. new byte[200]]),
            One(BsonType.Binary, [.. I32(length), 0, .. new byte[200]]),
            One(BsonType.Binary, [.. I32(300), 2, .. I32(length), .. new byte[300]]),
            One(BsonType.Document, [.. I32(length), .. new byte[200]]),
            [.. I32(length), BsonType.String, (byte)'s', 0, .. I32(length), .. new byte[200]],
        ];
        var output = new ArrayBufferWriter<byte>(64 * 1024);
        foreach (var bson in lies)
        {
            Transcoding.AssertSameAsOld(bson);
            var before = GC.GetAllocatedBytesForCurrentThread();
            try
            {
                output.ResetWrittenCount();
                BsonCodec.ToJson(bson, output);
            }
            catch (Exception ex) when (ex is ArgumentException or Newtonsoft.Json.JsonReaderException)
            {
            }
            Assert.InRange(GC.GetAllocatedBytesForCurrentThread() - before, 0, 64 * 1024);
        }
    }

    [Fact]
    public void Documents_read_from_the_store_match_Newtonsoft()
    {
        using var store = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        var random = new RandomBson(7, strict: true); // writes refuse the rest
        var stored = 0;
        for (var i = 0; i < 50; i++)
        {
            var data = random.Document(maxDepth: 3);
            var metadata = Doc(El(BsonType.String, "Raven-Entity-Name", Str("Things")), El(BsonType.Document, "extra", random.Document(maxDepth: 1)));
            var key = $"docs/{i}";
            try
            {
                store.Put(key, DocumentContent.FromBson(data), DocumentContent.FromBson(metadata));
            }
            catch (ArgumentException)
            {
                continue; // the odd generated document validation refuses (as it always did) is not stored
            }
            stored++;
            var document = store.Get(key)!;
            Assert.Equal(Transcoding.Old(metadata).Text, System.Text.Encoding.UTF8.GetString(document.MetadataJson.Span));
            Assert.Equal(Transcoding.Old(data).Text, System.Text.Encoding.UTF8.GetString(document.DataJson.Span));
        }
        Assert.InRange(stored, 40, 50);
    }
}
