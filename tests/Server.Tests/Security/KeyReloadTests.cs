using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Security;

/// <summary>Issue 30: keys are reloadable without a restart, through <c>POST /admin/keys/reload</c> or SIGHUP.</summary>
public sealed class KeyReloadTests : IDisposable
{
    private const string AdminKey = "key-reload-admin-key-0123456789";
    private const string OldKey = "key-reload-old-read-key-0123456789";
    private const string NewKey = "key-reload-new-write-key-0123456789";

    private readonly string _keysFile = Path.Combine(Path.GetTempPath(), "ravenlite-server-tests", Guid.NewGuid().ToString("N") + ".keys");

    public KeyReloadTests()
    {
        Directory.CreateDirectory(Path.GetDirectoryName(_keysFile)!);
        File.WriteAllLines(_keysFile, [$"read {OldKey}"]);
    }

    public void Dispose() => File.Delete(_keysFile);

    private Task<TestServer> StartAsync(bool withAdminKey = true) => TestServer.StartAsync(
        ["--urls", "http://127.0.0.1:0", "--api-keys-file", _keysFile, "--RavenLite:AuthFailuresPerMinute=1000",
            .. withAdminKey ? new[] { "--api-key", AdminKey } : []]);

    private static async Task<HttpStatusCode> SendAsync(HttpClient client, HttpMethod method, string url, string? key, string? json = null)
    {
        using var request = new HttpRequestMessage(method, url);
        if (key is not null)
            request.Headers.Add("X-Api-Key", key);
        if (json is not null)
            request.Content = TestServer.Json(json);
        using var response = await client.SendAsync(request);
        return response.StatusCode;
    }

    [Fact]
    public async Task A_reload_after_the_file_changed_admits_new_keys_and_revokes_removed_ones_without_a_restart()
    {
        await using var server = await StartAsync();
        Assert.Equal(HttpStatusCode.OK, await SendAsync(server.Client, HttpMethod.Get, "/stats", OldKey));
        Assert.Equal(HttpStatusCode.Unauthorized, await SendAsync(server.Client, HttpMethod.Get, "/stats", NewKey));
        File.WriteAllLines(_keysFile, ["# rotated", $"write {NewKey}"]);
        Assert.Equal(HttpStatusCode.OK, await SendAsync(server.Client, HttpMethod.Get, "/stats", OldKey)); // the file alone changes nothing

        using var reload = new HttpRequestMessage(HttpMethod.Post, "/admin/keys/reload");
        reload.Headers.Add("X-Api-Key", AdminKey);
        using var response = await server.Client.SendAsync(reload);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("1 write, 1 admin", JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.GetProperty("Keys").GetString());
        Assert.Equal(HttpStatusCode.Created, await SendAsync(server.Client, HttpMethod.Put, "/docs/reloaded/1", NewKey, """{"a":1}"""));
        Assert.Equal(HttpStatusCode.Unauthorized, await SendAsync(server.Client, HttpMethod.Get, "/stats", OldKey));
        Assert.Equal(HttpStatusCode.OK, await SendAsync(server.Client, HttpMethod.Get, "/stats", AdminKey)); // --api-key stays
    }

    [Theory]
    [InlineData("read short", "at least 16 characters")]
    [InlineData("owner key-reload-some-key-0123456789", "expected '<scope> <key>'")]
    [InlineData("# every key removed", "found no key")]
    public async Task A_bad_reload_is_a_400_and_the_current_keys_stay(string fileText, string reason)
    {
        await using var server = await StartAsync(withAdminKey: false);
        var keys = server.App.Services.GetService(typeof(RavenLiteServerOptions)) is RavenLiteServerOptions options ? options.Keys : null;
        Assert.NotNull(keys);
        File.WriteAllText(_keysFile, fileText + "\n" + (fileText.StartsWith('#') ? "" : $"admin {NewKey}\n"));
        var adminInFile = fileText.StartsWith('#') ? null : NewKey;

        var refused = Assert.Throws<ArgumentException>(() => RavenLite.Server.Routes.KeyRoutes.Reload(keys, Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance));

        Assert.Contains(reason, refused.Message, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, await SendAsync(server.Client, HttpMethod.Get, "/stats", OldKey));
        if (adminInFile is not null)
            Assert.Equal(HttpStatusCode.Unauthorized, await SendAsync(server.Client, HttpMethod.Get, "/stats", adminInFile));
    }

    [Fact]
    public async Task The_reload_route_answers_a_bad_file_with_a_400_problem_and_needs_the_admin_scope()
    {
        await using var server = await StartAsync();
        File.WriteAllLines(_keysFile, ["read short"]);

        Assert.Equal(HttpStatusCode.Forbidden, await SendAsync(server.Client, HttpMethod.Post, "/admin/keys/reload", OldKey));
        using var reload = new HttpRequestMessage(HttpMethod.Post, "/admin/keys/reload");
        reload.Headers.Add("X-Api-Key", AdminKey);
        var detail = await JsonAssert.ErrorAsync(await server.Client.SendAsync(reload), HttpStatusCode.BadRequest, ErrorCodes.BadRequest);

        Assert.Contains("line 1", detail, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, await SendAsync(server.Client, HttpMethod.Get, "/stats", OldKey));
    }

    [Fact]
    public async Task SIGHUP_reloads_the_keys_file_of_the_running_process()
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS())
            return; // SIGHUP is a POSIX signal
        var directory = TestServer.NewDataDirectory();
        var port = FreePort();
        using var process = Process.Start(new ProcessStartInfo("dotnet")
        {
            ArgumentList = { Path.Combine(AppContext.BaseDirectory, "RavenLite.Server.dll"), "--data-dir", directory, "--urls", $"http://127.0.0.1:{port}",
                "--api-keys-file", _keysFile, "--Logging:LogLevel:Default=Warning" },
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        })!;
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}"), Timeout = TimeSpan.FromSeconds(30) };
        try
        {
            await UntilAsync(process, async () => await SendAsync(client, HttpMethod.Get, "/health", OldKey) == HttpStatusCode.OK, "start listening");
            File.WriteAllLines(_keysFile, [$"write {NewKey}"]);

            using (var hup = Process.Start("kill", ["-HUP", process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
                await hup.WaitForExitAsync();
            // The signal is handled on a thread of its own: wait (bounded) for the new key to be accepted.
            await UntilAsync(process, async () => await SendAsync(client, HttpMethod.Get, "/stats", NewKey) == HttpStatusCode.OK, "accept the new key");

            Assert.False(process.HasExited); // SIGHUP no longer ends the process
            Assert.Equal(HttpStatusCode.Unauthorized, await SendAsync(client, HttpMethod.Get, "/stats", OldKey));
        }
        finally
        {
            if (!process.HasExited)
                process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync();
            if (Directory.Exists(directory))
                Directory.Delete(directory, recursive: true);
        }
    }

    private static async Task UntilAsync(Process process, Func<Task<bool>> condition, string what)
    {
        var started = Stopwatch.StartNew();
        while (started.Elapsed < TimeSpan.FromSeconds(60))
        {
            Assert.False(process.HasExited, $"the server process exited before it would {what}");
            try
            {
                if (await condition())
                    return;
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }
            await Task.Delay(50); // polling politely; the outcome never depends on it
        }
        Assert.Fail($"the server did not {what} within 60 s");
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
