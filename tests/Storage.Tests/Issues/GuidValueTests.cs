using Newtonsoft.Json.Linq;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.BsonBytes;

namespace RavenLite.Storage.Tests.Issues;

/// <summary>
/// A document holding a Guid (a JObject with a Guid value, stored as a BSON UUID binary) could be written but every
/// read of it threw InvalidCastException: the old BSON reader's Guid was cast to bytes. Found while replacing that
/// reader; a Guid now reads back as its string form, and a UUID that is not 16 bytes is refused at write.
/// </summary>
public sealed class GuidValueTests : IDisposable
{
    private static readonly Guid s_id = Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e");
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [EngineTheory]
    public void A_stored_guid_reads_back_as_its_string_form(StorageEngineKind engine)
    {
        using var store = StoreFactory.Open(engine, _dir.Path);
        store.Put("k", DocumentContent.FromJObject(new JObject { ["id"] = s_id, ["ids"] = new JArray(s_id, 1) }));

        var document = store.Get("k")!;

        Assert.Equal("""{"id":"0f8fad5b-d9cb-469f-a165-70867728950e","ids":["0f8fad5b-d9cb-469f-a165-70867728950e",1]}""",
            System.Text.Encoding.UTF8.GetString(document.DataJson.Span));
        Assert.Equal(s_id, document.Data.GetProperty("id").GetGuid());
    }

    [Fact]
    public void Both_read_paths_give_the_guid_string()
    {
        var bson = One(BsonType.Binary, Bin(4, s_id.ToByteArray()));
        // Past a name of 128 bytes BsonDataReader takes over; it must agree with the fast walk.
        var handedOver = Doc(El(BsonType.Int32, new string('n', 130), I32(1)), El(BsonType.Binary, "v", Bin(4, s_id.ToByteArray())));

        Assert.Equal("""{"v":"0f8fad5b-d9cb-469f-a165-70867728950e"}""", Transcoding.New(bson).Text);
        Assert.EndsWith(""","v":"0f8fad5b-d9cb-469f-a165-70867728950e"}""", Transcoding.New(handedOver).Text, StringComparison.Ordinal);
        Transcoding.AssertSameAsOld(bson);
        Transcoding.AssertSameAsOld(handedOver);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(15)]
    [InlineData(17)]
    public void A_uuid_that_is_not_16_bytes_is_refused_at_write(int length)
    {
        using var store = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        var bson = One(BsonType.Binary, Bin(4, new byte[length]));

        var ex = Assert.Throws<ArgumentException>(() => store.Put("k", DocumentContent.FromBson(bson)));

        Assert.Contains("UUID", ex.Message, StringComparison.Ordinal);
        Assert.Null(store.Get("k"));
    }
}
