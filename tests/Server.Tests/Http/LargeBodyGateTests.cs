using Microsoft.AspNetCore.Http;
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
