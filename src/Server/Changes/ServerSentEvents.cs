using System.Buffers;
using System.Text;
using System.Text.Json;
using RavenLite.Server.Http;
using RavenLite.Server.Json;

namespace RavenLite.Server.Changes;

/// <summary>
/// The <c>text/event-stream</c> wire form of the feed: a document change is <c>id: {etag}</c>, <c>event: put|delete</c>
/// and one <c>data:</c> line of JSON, so a reconnecting <c>EventSource</c> sends <c>Last-Event-ID</c> and misses nothing;
/// an index event has no id (it is not a position in the feed).
/// </summary>
internal static class ServerSentEvents
{
    public const string ContentType = "text/event-stream";

    public static void WriteChange(IBufferWriter<byte> output, DatabaseChange change)
    {
        if (change.Kind != ChangeKind.IndexCaughtUp)
            Write(output, $"id: {ETags.ToText(change.Etag)}\n");
        Write(output, change.Kind switch
        {
            ChangeKind.Put => "event: put\ndata: ",
            ChangeKind.Delete => "event: delete\ndata: ",
            _ => "event: index\ndata: ",
        });
        using (var json = new Utf8JsonWriter(output, JsonOutput.WriterOptions))
        {
            json.WriteStartObject();
            json.WriteString("Kind", change.Kind.ToString());
            json.WriteString("Etag", ETags.ToText(change.Etag));
            if (change.Key is not null)
                json.WriteString("Key", change.Key);
            if (change.EntityName is not null)
                json.WriteString("EntityName", change.EntityName);
            if (change.IndexName is not null)
                json.WriteString("IndexName", change.IndexName);
            json.WriteEndObject();
        }
        Write(output, "\n\n");
    }

    /// <summary><c>event: {name}</c> with a JSON <c>data:</c> line of one message and the last etag delivered.</summary>
    public static void WriteNotice(IBufferWriter<byte> output, string name, string message, long lastEtag)
    {
        Write(output, $"event: {name}\ndata: ");
        using (var json = new Utf8JsonWriter(output, JsonOutput.WriterOptions))
        {
            json.WriteStartObject();
            json.WriteString("Message", message);
            json.WriteString("LastEtag", ETags.ToText(lastEtag));
            json.WriteEndObject();
        }
        Write(output, "\n\n");
    }

    /// <summary>A comment line: ignored by clients, it keeps an idle connection visibly alive.</summary>
    public static void WriteHeartbeat(IBufferWriter<byte> output) => Write(output, ": heartbeat\n\n");

    /// <summary>How long an EventSource waits before reconnecting, in milliseconds.</summary>
    public static void WriteRetry(IBufferWriter<byte> output, int milliseconds) => Write(output, $"retry: {milliseconds}\n\n");

    private static void Write(IBufferWriter<byte> output, string text)
    {
        var span = output.GetSpan(Encoding.UTF8.GetMaxByteCount(text.Length));
        output.Advance(Encoding.UTF8.GetBytes(text, span));
    }
}
