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

    /// <summary>
    /// Asserts an error response: the status, an <c>application/problem+json</c> body with the status repeated, a title,
    /// a detail and a known code (<paramref name="code"/> when given); returns the detail.
    /// </summary>
    public static async Task<string> ErrorAsync(HttpResponseMessage response, HttpStatusCode expected, string? code = null) =>
        (await ProblemAsync(response, expected, code)).GetProperty("detail").GetString()!;

    /// <summary>As <see cref="ErrorAsync"/>, returning the whole problem details body.</summary>
    public static async Task<JsonElement> ProblemAsync(HttpResponseMessage response, HttpStatusCode expected, string? code = null)
    {
        var body = await ReadAsync(response, expected);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal((int)expected, body.GetProperty("status").GetInt32());
        Assert.False(string.IsNullOrWhiteSpace(body.GetProperty("title").GetString()));
        Assert.False(string.IsNullOrWhiteSpace(body.GetProperty("detail").GetString()));
        var actual = body.GetProperty(ErrorCodes.CodeMember).GetString();
        Assert.Contains(actual, ErrorCodes.All);
        if (code is not null)
            Assert.Equal(code, actual);
        Assert.False(body.TryGetProperty("Error", out _), "the old {\"Error\": ...} member is gone");
        return body;
    }
}
