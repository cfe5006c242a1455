using System.Threading.Channels;
using Microsoft.AspNetCore.Server.Kestrel.Core.Features;
using RavenLite.Database;

namespace RavenLite.Server.Changes;

/// <summary>
/// One <c>/changes</c> subscriber: a producer reads the database's feed into a bounded buffer, the response writes it
/// out. A client that leaves the buffer full for <see cref="ChangesFeedOptions.SlowConsumerTimeout"/> is cut off: it gets
/// a <c>cut-off</c> event naming the last etag it was sent (resume from there) and the connection ends, closed outright
/// if even that event is not read within <see cref="ChangesFeedOptions.CutOffGrace"/>. Writers never wait for a subscriber.
/// Heartbeats, the slow-consumer timeout and the grace run on <paramref name="time"/>.
/// </summary>
internal sealed class ChangesConnection(HttpContext context, DocumentDatabase database, ChangesFeedOptions options, ChangesFilter filter, TimeProvider time)
{
    private readonly Channel<DatabaseChange> _buffer = Channel.CreateBounded<DatabaseChange>(
        new BoundedChannelOptions(options.BufferSize) { SingleReader = true, SingleWriter = true, FullMode = BoundedChannelFullMode.Wait });

    private HttpResponse Response => context.Response;

    public async Task RunAsync(long fromEtag, CancellationToken stopping)
    {
        // The buffer is this feed's own slow-consumer policy; Kestrel's minimum rate would close idle readers silently.
        if (context.Features.Get<IHttpMinResponseDataRateFeature>() is { } rate)
            rate.MinDataRate = null;
        Response.ContentType = ServerSentEvents.ContentType;
        Response.Headers.CacheControl = "no-cache";
        Response.Headers["X-Accel-Buffering"] = "no";
        ServerSentEvents.WriteRetry(Response.BodyWriter, 1000);
        await Response.BodyWriter.FlushAsync(stopping);

        using var stop = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        var producer = ProduceAsync(fromEtag, stop.Token);
        try
        {
            await WriteAsync(fromEtag, stop.Token);
        }
        finally
        {
            await stop.CancelAsync();
            await producer;
        }
    }

    private async Task ProduceAsync(long fromEtag, CancellationToken stop)
    {
        var writer = _buffer.Writer;
        try
        {
            await foreach (var change in database.Changes(fromEtag, stop))
            {
                if (!filter.Matches(change) || writer.TryWrite(change))
                    continue;
                using var timeout = new CancellationTokenSource(options.SlowConsumerTimeout, time);
                using var wait = CancellationTokenSource.CreateLinkedTokenSource(stop, timeout.Token);
                try
                {
                    await writer.WriteAsync(change, wait.Token);
                }
                catch (OperationCanceledException) when (!stop.IsCancellationRequested)
                {
                    writer.TryComplete(new SlowConsumerException());
                    return;
                }
            }
            writer.TryComplete();
        }
        catch (OperationCanceledException)
        {
            writer.TryComplete();
        }
        catch (Exception ex)
        {
            writer.TryComplete(ex);
        }
    }

    private async Task WriteAsync(long lastEtag, CancellationToken stop)
    {
        var reader = _buffer.Reader;
        var output = Response.BodyWriter;
        while (true)
        {
            bool more;
            try
            {
                using var due = new CancellationTokenSource(options.HeartbeatInterval, time);
                using var heartbeat = CancellationTokenSource.CreateLinkedTokenSource(stop, due.Token);
                more = await reader.WaitToReadAsync(heartbeat.Token);
            }
            catch (OperationCanceledException) when (!stop.IsCancellationRequested)
            {
                ServerSentEvents.WriteHeartbeat(output);
                await output.FlushAsync(stop);
                continue;
            }
            catch (OperationCanceledException)
            {
                await CloseAsync(output, "closed", "The server is shutting down; reconnect with Last-Event-ID to resume.", lastEtag);
                return;
            }
            catch (SlowConsumerException)
            {
                await CutOffAsync(output, lastEtag);
                return;
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                // The response has started: a failure of the feed can only be told as an event.
                await CloseAsync(output, "closed", "The changes feed failed on the server; reconnect with Last-Event-ID to resume.", lastEtag);
                return;
            }
            if (!more)
            {
                await CloseAsync(output, "closed", "The database closed; reconnect with Last-Event-ID to resume.", lastEtag);
                return;
            }
            while (reader.TryRead(out var change))
            {
                ServerSentEvents.WriteChange(output, change);
                if (change.Kind != ChangeKind.IndexCaughtUp)
                    lastEtag = change.Etag;
            }
            await output.FlushAsync(stop);
        }
    }

    private async Task CutOffAsync(System.IO.Pipelines.PipeWriter output, long lastEtag)
    {
        using var grace = new CancellationTokenSource(options.CutOffGrace, time);
        using var abort = grace.Token.Register(context.Abort);
        ServerSentEvents.WriteNotice(output, "cut-off",
            $"The client did not read for {options.SlowConsumerTimeout.TotalSeconds:0.###} s with {options.BufferSize} changes waiting; " +
            "reconnect with Last-Event-ID to resume from the last etag it was sent.", lastEtag);
        await output.FlushAsync(CancellationToken.None);
    }

    private async Task CloseAsync(System.IO.Pipelines.PipeWriter output, string name, string message, long lastEtag)
    {
        ServerSentEvents.WriteNotice(output, name, message, lastEtag);
        using var brief = new CancellationTokenSource(TimeSpan.FromSeconds(2), time);
        try
        {
            await output.FlushAsync(brief.Token);
        }
        catch (OperationCanceledException)
        {
        }
    }

    /// <summary>The buffer stayed full: the client is not keeping up.</summary>
    private sealed class SlowConsumerException : Exception;
}
