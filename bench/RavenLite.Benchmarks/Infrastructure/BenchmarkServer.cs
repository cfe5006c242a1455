using Microsoft.AspNetCore.Builder;
using RavenLite.Server;

namespace RavenLite.Benchmarks.Infrastructure;

/// <summary>The real RavenLite server in-process on 127.0.0.1 (port 0) over a folder, as every HTTP and remote-client benchmark starts it.</summary>
internal static class BenchmarkServer
{
    /// <summary>Builds and starts a server over <paramref name="directory"/>, warnings-only logging, with <paramref name="options"/> added.</summary>
    public static WebApplication Start(string directory, params string[] options)
    {
        var server = RavenLiteServer.Build(["--data-dir", directory, "--urls", "http://127.0.0.1:0", "--Logging:LogLevel:Default=Warning", .. options]);
        server.StartAsync().GetAwaiter().GetResult();
        return server;
    }

    /// <summary>Stops and disposes <paramref name="server"/> (a server that was never started is skipped).</summary>
    public static void Stop(WebApplication? server)
    {
        if (server is null)
            return;
        server.StopAsync().GetAwaiter().GetResult();
        server.DisposeAsync().AsTask().GetAwaiter().GetResult();
    }
}
