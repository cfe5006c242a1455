using System.IO.Pipelines;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;
using RavenLite.Server.Errors;
using RavenLite.Server.Http;

namespace RavenLite.Server.Tests.Http;

public sealed class LargeBodyGateTests
{
    [Fact]
    public async Task A_request_past_the_permits_waits_and_gets_a_503_unavailable_when_the_wait_limit_passes()
    {
        var time = new FakeTimeProvider();
        using var gate = new LargeBodyGate(new RavenLiteServerOptions { MaxConcurrentLargeBodies = 1 }, time);
        var holder = new DefaultHttpContext();
        await gate.EnterAsync(holder);
        await gate.EnterAsync(holder); // a request takes one permit, however often it asks
        Assert.Equal(0, gate.Available);

        var waiting = gate.EnterAsync(new DefaultHttpContext());
        time.Advance(LargeBodyGate.WaitLimit - TimeSpan.FromMilliseconds(1));
        Assert.False(waiting.IsCompleted);
        time.Advance(TimeSpan.FromMilliseconds(1));

        var refused = await Assert.ThrowsAsync<RequestException>(() => waiting);
        Assert.Equal(StatusCodes.Status503ServiceUnavailable, refused.StatusCode);
        Assert.Equal(ErrorCodes.Unavailable, refused.Code);
        Assert.Contains("MaxConcurrentLargeBodies is 1", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_large_body_still_arriving_when_its_read_limit_passes_is_refused_with_408_and_a_small_one_has_no_limit()
    {
        var time = new FakeTimeProvider();
        using var gate = new LargeBodyGate(new RavenLiteServerOptions { MaxConcurrentLargeBodies = 1 }, time);
        var services = new ServiceCollection().AddSingleton(gate).BuildServiceProvider();
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0)); // the writer never waits for the reader
        var context = new DefaultHttpContext { RequestServices = services };
        context.Request.Body = pipe.Reader.AsStream();
        context.Request.ContentLength = 2 * LargeBodyGate.LargeBodyBytes;
        await pipe.Writer.WriteAsync(new byte[LargeBodyGate.LargeBodyBytes]);

        var reading = RequestBody.ReadAsync(context.Request, 17L << 20);
        await Task.Yield();
        Assert.Equal(0, gate.Available);
        time.Advance(LargeBodyGate.ReadLimit - TimeSpan.FromSeconds(1));
        Assert.False(reading.IsCompleted);
        time.Advance(TimeSpan.FromSeconds(1));

        var refused = await Assert.ThrowsAsync<RequestException>(() => reading);
        Assert.Equal(StatusCodes.Status408RequestTimeout, refused.StatusCode);
        Assert.Equal(ErrorCodes.RequestTimeout, refused.Code);
        Assert.Equal(CancellationToken.None, LargeBodyGate.ReadDeadline(new DefaultHttpContext()));
    }

    [Fact]
    public async Task A_waiting_request_whose_client_leaves_stops_waiting_without_a_refusal()
    {
        var time = new FakeTimeProvider();
        using var gate = new LargeBodyGate(new RavenLiteServerOptions { MaxConcurrentLargeBodies = 1 }, time);
        await gate.EnterAsync(new DefaultHttpContext());
        using var aborted = new CancellationTokenSource();
        var leaving = new DefaultHttpContext { RequestAborted = aborted.Token };

        var waiting = gate.EnterAsync(leaving);
        await aborted.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiting);
    }
}
