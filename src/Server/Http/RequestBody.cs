using System.Buffers;
using Microsoft.AspNetCore.Http.Features;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Http;

/// <summary>Reads a request body into memory, asynchronously and within the size limit, before storage is touched.</summary>
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

        var buffer = new ArrayBufferWriter<byte>((int)Math.Clamp(request.ContentLength ?? 4096, 1, 1024 * 1024));
        var reader = request.BodyReader;
        while (true)
        {
            var result = await reader.ReadAsync(request.HttpContext.RequestAborted);
            var received = result.Buffer;
            if (buffer.WrittenCount + received.Length > limit)
            {
                reader.AdvanceTo(received.End);
                if (!result.IsCompleted)
                    await DiscardAsync(request, limit);
                throw RequestException.TooLarge(limit);
            }
            foreach (var segment in received)
                buffer.Write(segment.Span);
            reader.AdvanceTo(received.End);
            if (result.IsCompleted)
                return buffer.WrittenMemory;
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
