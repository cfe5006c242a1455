using System.Text.Json;
using RavenLite.Server.Json;

namespace RavenLite.Server.Errors;

/// <summary>Writes the error body every refusal shares: <c>{"Error": "message"}</c>.</summary>
internal static class ErrorResponse
{
    /// <summary>Sets <paramref name="status"/> and writes the message as the JSON error body.</summary>
    public static async Task WriteAsync(HttpResponse response, int status, string message)
    {
        response.StatusCode = status;
        response.ContentType = "application/json; charset=utf-8";
        using (var json = new Utf8JsonWriter(response.BodyWriter, JsonOutput.WriterOptions))
        {
            json.WriteStartObject();
            json.WriteString("Error", message);
            json.WriteEndObject();
        }
        await response.BodyWriter.FlushAsync(response.HttpContext.RequestAborted);
    }
}
