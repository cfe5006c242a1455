using System.IO.Pipelines;
using RavenLite.Server.Json;

namespace RavenLite.Server.Tests.Json;

/// <summary>The writer holds a body up to its hold size (sent in one write at the end) and streams a larger one.</summary>
public sealed class DocumentJsonWriterTests
{
    private static readonly byte[] Block = Enumerable.Range(0, 10_000).Select(i => (byte)('a' + i % 26)).ToArray();

    [Fact]
    public async Task A_body_under_the_hold_is_sent_only_by_the_final_flush()
    {
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0));
        var streamed = 0;
        using var writer = new DocumentJsonWriter(pipe.Writer, holdBytes: 200_000, () => streamed++);
        for (var i = 0; i < 15; i++)
        {
            writer.Raw(Block);
            await writer.FlushIfNeededAsync(CancellationToken.None);
        }

        Assert.False(writer.HasSent);
        Assert.Equal(150_000, writer.Length);
        Assert.Equal(Block, writer.Copy(10_000));
        await writer.FlushAsync(CancellationToken.None);

        Assert.True(writer.HasSent);
        Assert.Equal(0, streamed);
        Assert.Equal(150_000, await ReadAllAsync(pipe));
    }

    [Fact]
    public async Task A_body_over_the_hold_is_streamed_after_one_call_of_the_callback()
    {
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0));
        var streamed = 0;
        using var writer = new DocumentJsonWriter(pipe.Writer, holdBytes: 100_000, () => streamed++);
        for (var i = 0; i < 40; i++)
        {
            writer.Raw(Block);
            await writer.FlushIfNeededAsync(CancellationToken.None);
            Assert.Equal(i >= 10, writer.HasSent); // past 100,000 bytes (the 11th block) it starts sending
        }
        await writer.FlushAsync(CancellationToken.None);

        Assert.Equal(1, streamed);
        Assert.Equal(400_000, await ReadAllAsync(pipe));
    }

    private static async Task<long> ReadAllAsync(Pipe pipe)
    {
        await pipe.Writer.CompleteAsync();
        long total = 0;
        while (true)
        {
            var read = await pipe.Reader.ReadAsync();
            total += read.Buffer.Length;
            pipe.Reader.AdvanceTo(read.Buffer.End);
            if (read.IsCompleted)
                return total;
        }
    }
}
