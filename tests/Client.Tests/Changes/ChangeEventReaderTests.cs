using System.Text;
using RavenLite.Client.Changes;

namespace RavenLite.Client.Tests.Changes;

/// <summary>The changes reader reads the whole text/event-stream format, not only the server's one-line events.</summary>
public sealed class ChangeEventReaderTests
{
    private static ChangeEventReader Reader(string stream) =>
        new(new MemoryStream(Encoding.UTF8.GetBytes(stream)), CancellationToken.None);

    [Fact]
    public async Task Multi_line_data_comments_retry_and_id_fields_are_read_as_the_format_defines_them()
    {
        await using var reader = Reader(
            "retry: 2500\n\n" +
            ": heartbeat\n\n" +
            "id: 41\nevent: put\ndata: {\"Kind\": \"Put\", \"Etag\": \"41\",\ndata:  \"Key\": \"carts/1\", \"EntityName\": \"Carts\"}\n\n" +
            ": another comment\n" +
            "event: delete\r\nid: 42\r\ndata: {\"Kind\": \"Delete\", \"Etag\": \"42\", \"Key\": \"carts/2\"}\r\n\r\n");

        var put = await reader.NextAsync();
        Assert.Equal(new DatabaseChange(ChangeKind.Put, 41, "carts/1", "Carts", null), put);
        Assert.Equal("41", reader.LastEventId);
        var delete = await reader.NextAsync();
        Assert.Equal(new DatabaseChange(ChangeKind.Delete, 42, "carts/2", null, null), delete);
        Assert.Equal("42", reader.LastEventId);
        Assert.Equal(TimeSpan.FromMilliseconds(2500), reader.ReconnectionInterval);
        Assert.Null(await reader.NextAsync());
        Assert.Null(reader.EndedBy);
    }

    [Fact]
    public async Task A_notice_ends_the_stream_naming_itself()
    {
        await using var reader = Reader("event: cut-off\ndata: {\"Message\": \"too slow\", \"LastEtag\": \"7\"}\n\nevent: put\ndata: {}\n\n");

        Assert.Null(await reader.NextAsync());
        Assert.Equal("cut-off", reader.EndedBy);
        Assert.Null(reader.LastEventId);
        Assert.Null(reader.ReconnectionInterval);
    }
}
