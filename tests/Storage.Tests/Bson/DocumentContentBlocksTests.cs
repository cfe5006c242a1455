using Newtonsoft.Json;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Tests.Bson;

/// <summary>
/// Documents a <see cref="DocumentContentWriter"/> copies into <see cref="DocumentContentBlocks"/> stay as written until
/// their batch is released, while later batches reuse the blocks of released ones.
/// </summary>
public sealed class DocumentContentBlocksTests
{
    private static readonly JsonSerializer Serializer = JsonSerializer.CreateDefault();

    /// <summary>A document of its own size and content: a name and a text of <paramref name="index"/>-dependent length.</summary>
    private static object Entity(int index) => new { index, text = new string((char)('a' + index % 26), index * 389 % 9000) };

    private static byte[] OwnArray(object entity)
    {
        using var writer = new DocumentContentWriter();
        Serializer.Serialize(writer, entity);
        return writer.TakeContent()!.Bson.ToArray();
    }

    private static List<(int Index, DocumentContent Content)> WriteBatch(DocumentContentWriter writer, DocumentContentBlocks blocks, int first, int count)
    {
        var batch = new List<(int, DocumentContent)>();
        for (var i = first; i < first + count; i++)
        {
            Serializer.Serialize(writer, Entity(i));
            batch.Add((i, writer.TakeContent()!));
        }
        blocks.EndBatch();
        return batch;
    }

    private static void AssertIntact(List<(int Index, DocumentContent Content)> batch)
    {
        foreach (var (index, content) in batch)
            Assert.Equal(OwnArray(Entity(index)), content.Bson.ToArray());
    }

    [Fact]
    public void Batches_not_yet_released_keep_their_bytes_while_later_batches_reuse_released_blocks()
    {
        var blocks = new DocumentContentBlocks();
        using var writer = new DocumentContentWriter(blocks);
        // Each batch is about 200 KB, several blocks; two batches are in flight at a time, as in a bulk insert.
        var inFlight = new Queue<List<(int, DocumentContent)>>();
        for (var batch = 0; batch < 12; batch++)
        {
            inFlight.Enqueue(WriteBatch(writer, blocks, batch * 45, 45));
            foreach (var pending in inFlight)
                AssertIntact(pending);
            if (inFlight.Count == 2)
            {
                inFlight.Dequeue();
                blocks.ReleaseBatch();
            }
        }
    }

    [Fact]
    public void A_document_larger_than_a_quarter_block_gets_an_array_of_its_own()
    {
        var blocks = new DocumentContentBlocks();
        using var writer = new DocumentContentWriter(blocks);
        var large = new { text = new string('x', 20_000) };
        Serializer.Serialize(writer, large);
        var content = writer.TakeContent()!;
        Assert.True(System.Runtime.InteropServices.MemoryMarshal.TryGetArray(content.Bson, out var segment));
        Assert.Equal(content.Bson.Length, segment.Array!.Length);
        blocks.EndBatch();
        blocks.ReleaseBatch();
        WriteBatch(writer, blocks, 0, 100);
        Assert.Equal(OwnArray(large), content.Bson.ToArray());
    }

    [Fact]
    public void A_release_with_no_batch_ended_is_not_kept_for_a_later_batch()
    {
        var blocks = new DocumentContentBlocks();
        using var writer = new DocumentContentWriter(blocks);
        blocks.ReleaseBatch();
        blocks.ReleaseBatch();
        var first = WriteBatch(writer, blocks, 1, 40);
        var second = WriteBatch(writer, blocks, 41, 40);
        AssertIntact(first);
        AssertIntact(second);
    }

    [Fact]
    public void Disposing_twice_is_safe_and_disposed_blocks_take_no_more_documents()
    {
        var blocks = new DocumentContentBlocks();
        using var writer = new DocumentContentWriter(blocks);
        WriteBatch(writer, blocks, 0, 5);
        blocks.Dispose();
        blocks.Dispose();
        blocks.ReleaseBatch();
        Serializer.Serialize(writer, Entity(1));
        Assert.Throws<ObjectDisposedException>(() => writer.TakeContent());
    }
}
