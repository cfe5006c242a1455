using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using RavenLite.Server.Security;

namespace RavenLite.Server.Cli;

/// <summary><c>ravenlite backup --url</c>: starts <c>POST /admin/backup</c> on the server and follows it until it ends.</summary>
internal static class RemoteBackup
{
    private static readonly TimeSpan s_poll = TimeSpan.FromMilliseconds(250);

    /// <param name="url">The server's base address.</param>
    /// <param name="apiKey">The key the server requires, if any.</param>
    /// <param name="folder">The backup folder's name inside the server's backup directory (<c>--backup-dir</c>); the server refuses paths that lead elsewhere.</param>
    /// <param name="error">Where each step is printed as the server reaches it.</param>
    /// <returns>The summary line.</returns>
    /// <exception cref="IOException">The server refused the backup or it failed there; the message is the server's.</exception>
    public static async Task<string> RunAsync(Uri url, string? apiKey, string folder, TextWriter error)
    {
        using var client = new HttpClient { BaseAddress = url, Timeout = TimeSpan.FromMinutes(1) };
        if (apiKey is not null)
            client.DefaultRequestHeaders.Add(ApiKeyMiddleware.HeaderName, apiKey);
        using var started = await client.PostAsync("admin/backup?folder=" + Uri.EscapeDataString(folder), content: null);
        var status = await ReadAsync(started);
        var location = started.Headers.Location ?? throw new IOException("The server started a backup but did not say where to follow it.");
        string? step = null;
        while (status.GetProperty("State").GetString() == "Running")
        {
            if (status.GetProperty("Step").GetString() is { } now && now != step)
                await error.WriteLineAsync($"  {step = now,-10} ...");
            await Task.Delay(s_poll);
            using var response = await client.GetAsync(location);
            status = await ReadAsync(response);
        }
        if (status.GetProperty("State").GetString() != "Succeeded")
            throw new IOException($"The backup into {folder} failed on the server: {status.GetProperty("Error").GetString()}");
        return string.Create(CultureInfo.InvariantCulture,
            $"Backed up {status.GetProperty("Documents").GetInt64():N0} documents up to etag {status.GetProperty("LastEtag").GetInt64()} " +
            $"into {folder} in the server's backup directory ({MaintenanceCommand.Megabytes(status.GetProperty("Bytes").GetInt64())}).");
    }

    private static async Task<JsonElement> ReadAsync(HttpResponseMessage response)
    {
        var body = await response.Content.ReadFromJsonAsync<JsonElement>();
        if (!response.IsSuccessStatusCode)
            throw new IOException($"The server answered {(int)response.StatusCode}: " +
                (body.ValueKind == JsonValueKind.Object && body.TryGetProperty("detail", out var message) ? message.GetString() : body.ToString()));
        return body;
    }
}
