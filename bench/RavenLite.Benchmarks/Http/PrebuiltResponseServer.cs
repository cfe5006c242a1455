using System.Buffers;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace RavenLite.Benchmarks.Http;

/// <summary>
/// The smallest Kestrel minimal API that answers with a fixed body: the floor for any HTTP endpoint returning those
/// bytes on this machine (Kestrel, loopback TCP, HttpClient), without RavenLite. <c>GET /prebuilt</c> sends it in one
/// write with a Content-Length; <c>GET /prebuilt-chunked</c> sends it without a length, in document-sized writes and
/// one flush, framed as chunks the way a streamed response must be. The suite starts it in-process beside the real
/// server; <c>bench/http-load.sh</c> runs it as a process of its own (<see cref="ServeUntilStoppedAsync"/>) for wrk.
/// </summary>
internal sealed class PrebuiltResponseServer : IAsyncDisposable
{
    /// <summary>The write size of <c>/prebuilt-chunked</c>: about one seed cart with its metadata.</summary>
    private const int ChunkedWriteSize = 700;

    private readonly WebApplication _app;

    private PrebuiltResponseServer(WebApplication app, Uri address)
    {
        _app = app;
        Address = address;
    }

    /// <summary>Where it listens (127.0.0.1, a free port).</summary>
    public Uri Address { get; }

    /// <summary>Starts the server on 127.0.0.1 at <paramref name="port"/> (0: a free one), serving <paramref name="body"/> as JSON.</summary>
    public static async Task<PrebuiltResponseServer> StartAsync(byte[] body, int port = 0)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.AddServerHeader = false);
        var app = builder.Build();
        app.MapGet("/prebuilt", (HttpContext context) =>
        {
            context.Response.ContentType = "application/json; charset=utf-8";
            context.Response.ContentLength = body.Length;
            return context.Response.Body.WriteAsync(body, context.RequestAborted).AsTask();
        });
        app.MapGet("/prebuilt-chunked", async (HttpContext context) =>
        {
            context.Response.ContentType = "application/json; charset=utf-8";
            var output = context.Response.BodyWriter;
            for (var start = 0; start < body.Length; start += ChunkedWriteSize)
                output.Write(body.AsSpan(start, Math.Min(ChunkedWriteSize, body.Length - start)));
            await output.FlushAsync(context.RequestAborted);
        });
        await app.StartAsync();
        return new PrebuiltResponseServer(app, new Uri(app.Urls.First()));
    }

    /// <summary>
    /// Serves the bytes of <paramref name="bodyFile"/> until the process gets SIGTERM or Ctrl+C, after printing
    /// <c>Now listening on: &lt;address&gt;</c> (the line ASP.NET Core prints), so a script can find a free port.
    /// </summary>
    public static async Task ServeUntilStoppedAsync(string bodyFile, int port)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(port);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(port, 65535);
        var body = await File.ReadAllBytesAsync(bodyFile);
        if (body.Length == 0)
            throw new ArgumentException($"{bodyFile} is empty; there is nothing to serve.", nameof(bodyFile));
        await using var server = await StartAsync(body, port);
        Console.WriteLine($"Now listening on: {server.Address}");
        await server._app.WaitForShutdownAsync();
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
