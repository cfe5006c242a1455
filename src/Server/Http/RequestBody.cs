using System.Buffers;
using Microsoft.AspNetCore.Http.Features;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Http;

/// <summary>
/// Reads a request body into memory, asynchronously and within the size limit, before storage is touched; bodies over
/// 1 MiB wait for a <see cref="LargeBodyGate"/> permit first.
/// </summary>
internal static class RequestBody
{
    /// <summary>How long a refused body may take to drain so the client can read its 413.</summary>
    private static readonly TimeSpan DrainTime = TimeSpan.FromSeconds(5);

    /// <summary>
    /// The whole body. Over <paramref name="limit"/> bytes it throws a 413 <see cref="RequestException"/>; first,
    /// when the excess is modest (at most another <paramref name="limit"/> bytes), it reads and discards the rest,
    /// so a client that sends its whole body before reading the response sees the 413 instead of a reset
    /// connection. A client that sent <c>Expect: 100-continue</c> gets the 413 before sending anything.
    /// </summary>
    public static async Task<ReadOnlyMemory<byte>> ReadAsync(HttpRequest request, long limit)
    {
        // The limit is enforced here, where the refusal can be answered properly, rather than by Kestrel.
        if (request.HttpContext.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } kestrelLimit)
            kestrelLimit.MaxRequestBodySize = null;
        if (request.ContentLength > limit)
        {
            if (request.ContentLength <= 2 * limit && !ExpectsContinue(request))
                await DiscardAsync(request, limit * 2);
            throw RequestException.TooLarge(limit);
        }

        var gate = request.HttpContext.RequestServices.GetRequiredService<LargeBodyGate>();
        if (request.ContentLength > LargeBodyGate.LargeBodyBytes)
            await gate.EnterAsync(request.HttpContext);
        // A body of known length goes into one array of its size. One of unknown length (chunked) goes into pooled
        // segments, copied once into an array of its size at the end and given back: no doubling growth (a 17 MiB body
        // grown by doubling allocates 63 MiB), and a body refused as too large leaves no garbage at all.
        using var body = new BodyBuffer(request.ContentLength);
        var reader = request.BodyReader;
        while (true)
        {
            var result = await ReadAsync(reader, request.HttpContext);
            var received = result.Buffer;
            if (body.Length + received.Length > limit)
            {
                reader.AdvanceTo(received.End);
                if (!result.IsCompleted)
                    await DiscardAsync(request, limit);
                throw RequestException.TooLarge(limit);
            }
            // A body of unknown length takes its permit when it grows past the large-body size.
            if (body.Length + received.Length > LargeBodyGate.LargeBodyBytes)
                await gate.EnterAsync(request.HttpContext);
            foreach (var segment in received)
                body.Write(segment.Span);
            reader.AdvanceTo(received.End);
            if (result.IsCompleted)
                return body.ToMemory();
        }
    }

    /// <summary>The next part of the body; once the request holds a large-body permit, within that permit's read time.</summary>
    private static async ValueTask<System.IO.Pipelines.ReadResult> ReadAsync(System.IO.Pipelines.PipeReader reader, HttpContext context)
    {
        var deadline = LargeBodyGate.ReadDeadline(context);
        if (!deadline.CanBeCanceled)
            return await reader.ReadAsync(context.RequestAborted);
        using var both = CancellationTokenSource.CreateLinkedTokenSource(context.RequestAborted, deadline);
        try
        {
            return await reader.ReadAsync(both.Token);
        }
        catch (OperationCanceledException) when (deadline.IsCancellationRequested && !context.RequestAborted.IsCancellationRequested)
        {
            throw LargeBodyGate.TooSlow();
        }
    }

    /// <summary>The body as it arrives: into an array of the announced length, or into segments rented from the shared pool.</summary>
    private sealed class BodyBuffer(long? contentLength) : IDisposable
    {
        private const int SegmentBytes = 64 * 1024;

        private readonly byte[]? _exact = contentLength is > 0 and var n ? new byte[n] : null;
        private readonly List<byte[]> _segments = [];
        private int _inLast = SegmentBytes;

        public long Length { get; private set; }

        public void Write(ReadOnlySpan<byte> data)
        {
            if (_exact is not null && Length + data.Length <= _exact.Length)
            {
                data.CopyTo(_exact.AsSpan((int)Length));
                Length += data.Length;
                return;
            }
            if (_exact is not null)
                throw new InvalidOperationException("The body is longer than its Content-Length."); // Kestrel never lets this through
            while (!data.IsEmpty)
            {
                if (_inLast == SegmentBytes)
                {
                    _segments.Add(ArrayPool<byte>.Shared.Rent(SegmentBytes));
                    _inLast = 0;
                }
                var n = Math.Min(data.Length, SegmentBytes - _inLast);
                data[..n].CopyTo(_segments[^1].AsSpan(_inLast));
                _inLast += n;
                Length += n;
                data = data[n..];
            }
        }

        public ReadOnlyMemory<byte> ToMemory()
        {
            if (_exact is not null)
                return _exact.AsMemory(0, (int)Length);
            var whole = new byte[Length];
            var at = 0;
            for (var i = 0; i < _segments.Count; i++)
            {
                var n = i == _segments.Count - 1 ? _inLast : SegmentBytes;
                _segments[i].AsSpan(0, n).CopyTo(whole.AsSpan(at));
                at += n;
            }
            return whole;
        }

        public void Dispose()
        {
            foreach (var segment in _segments)
                ArrayPool<byte>.Shared.Return(segment);
            _segments.Clear();
        }
    }

    private static bool ExpectsContinue(HttpRequest request) =>
        request.Headers.Expect.ToString().Contains("100-continue", StringComparison.OrdinalIgnoreCase);

    /// <summary>Reads and drops the rest of the body, up to <paramref name="budget"/> bytes and <see cref="DrainTime"/>.</summary>
    private static async Task DiscardAsync(HttpRequest request, long budget)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(request.HttpContext.RequestAborted);
        timeout.CancelAfter(DrainTime);
        var reader = request.BodyReader;
        long discarded = 0;
        try
        {
            while (discarded <= budget)
            {
                var result = await reader.ReadAsync(timeout.Token);
                discarded += result.Buffer.Length;
                reader.AdvanceTo(result.Buffer.End);
                if (result.IsCompleted)
                    return;
            }
        }
        catch (OperationCanceledException) when (!request.HttpContext.RequestAborted.IsCancellationRequested)
        {
            // Too slow: answer anyway; Kestrel closes the connection with the body unread.
        }
    }
}
