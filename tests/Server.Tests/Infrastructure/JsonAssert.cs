using System.Net;
using System.Text.Json;

namespace RavenLite.Server.Tests.Infrastructure;

internal static class JsonAssert
{
    /// <summary>Asserts the status and returns the body parsed.</summary>
    public static async Task<JsonElement> ReadAsync(HttpResponseMessage response, HttpStatusCode expected)
    {
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == expected, $"Expected {(int)expected}, got {(int)response.StatusCode}: {text}");
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    /// <summary>Asserts an error response: the status, a JSON body with exactly one "Error" string, and returns the message.</summary>
    public static async Task<string> ErrorAsync(HttpResponseMessage response, HttpStatusCode expected)
    {
        var body = await ReadAsync(response, expected);
        Assert.Equal("application/json; charset=utf-8", response.Content.Headers.ContentType?.ToString());
        var property = Assert.Single(body.EnumerateObject());
        Assert.Equal("Error", property.Name);
        return property.Value.GetString()!;
    }
}
