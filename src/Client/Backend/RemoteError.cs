using System.Text.Json;

namespace RavenLite.Client.Backend;

/// <summary>An error answer from the server: its status and the message of its <c>{"Error": ...}</c> body.</summary>
internal readonly record struct RemoteError(int Status, string Message)
{
    public static RemoteError Read(int status, Stream body, string request)
    {
        string? message = null;
        try
        {
            using var json = JsonDocument.Parse(body);
            if (json.RootElement.ValueKind == JsonValueKind.Object && json.RootElement.TryGetProperty("Error", out var error))
                message = error.GetString();
        }
        catch (JsonException)
        {
            // Not RavenLite's error body (a proxy, or the connection broke): the status says enough.
        }
        return new RemoteError(status, message ?? $"{request} failed with HTTP status {status}.");
    }
}
