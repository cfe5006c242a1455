using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests;

/// <summary>
/// Issue 11: one table of malformed bodies, keys, headers, index definitions, queries and continuation tokens.
/// Each gets a 4xx problem details body with its error code, writes nothing (document count, last etag and index list
/// unchanged), and leaves the server serving.
/// </summary>
public sealed partial class BadInputTests
{
    private const string Json = "application/json";
    private const string Query = "/indexes/Raven/DocumentsByEntityName?query=Tag:Item";

    public static IEnumerable<object?[]> Malformed()
    {
        // name, method, path, body, content type, extra header ("Name: value"), expected status and error code
        object?[] Row(string name, string method, string path, string? body, int status, string code, string? contentType = Json, string? header = null) =>
            [name, method, path, body, contentType, header, status, code];

        // Bodies: not JSON by RFC 8259, or JSON that cannot be stored as it is.
        yield return Row("unclosed object", "PUT", "/docs/bad/1", "{\"asd\":\"asd\"", 400, ErrorCodes.BadRequest);
        yield return Row("single quotes", "PUT", "/docs/bad/1", "{'a':'b'}", 400, ErrorCodes.BadRequest);
        yield return Row("unquoted name", "PUT", "/docs/bad/1", "{a:1}", 400, ErrorCodes.BadRequest);
        yield return Row("number as name", "PUT", "/docs/bad/1", "{1:1}", 400, ErrorCodes.BadRequest);
        yield return Row("trailing comma", "PUT", "/docs/bad/1", "{\"a\":[1,],}", 400, ErrorCodes.BadRequest);
        yield return Row("comment", "PUT", "/docs/bad/1", "{\"a\":1 /* c */}", 400, ErrorCodes.BadRequest);
        yield return Row("NaN", "PUT", "/docs/bad/1", "{\"a\":NaN}", 400, ErrorCodes.BadRequest);
        yield return Row("leading zero", "PUT", "/docs/bad/1", "{\"a\":007}", 400, ErrorCodes.BadRequest);
        yield return Row("number out of range", "PUT", "/docs/bad/1", "{\"a\":1e400}", 400, ErrorCodes.BadRequest);
        yield return Row("NUL in a name", "PUT", "/docs/bad/1", "{\"foo\\u0000bar\":42}", 400, ErrorCodes.BadRequest);
        yield return Row("lone surrogate", "PUT", "/docs/bad/1", "{\"a\":\"\\ud800\"}", 400, ErrorCodes.BadRequest);
        yield return Row("duplicate name", "PUT", "/docs/bad/1", "{\"a\":1,\"a\":2}", 400, ErrorCodes.BadRequest);
        yield return Row("too deep", "PUT", "/docs/bad/1", string.Concat(Enumerable.Repeat("{\"a\":", 128)) + "{}" + new string('}', 128), 400, ErrorCodes.BadRequest);
        yield return Row("array", "PUT", "/docs/bad/1", "[1,2]", 400, ErrorCodes.BadRequest);
        yield return Row("empty", "PUT", "/docs/bad/1", "", 400, ErrorCodes.BadRequest);
        yield return Row("two objects", "PUT", "/docs/bad/1", "{}{}", 400, ErrorCodes.BadRequest);
        yield return Row("POST with a bad body", "POST", "/docs", "{\"a\":}", 400, ErrorCodes.BadRequest);
        // Keys.
        yield return Row("blank key", "PUT", "/docs/%20", "{}", 400, ErrorCodes.BadRequest);
        yield return Row("control character in key", "PUT", "/docs/a%01b", "{}", 400, ErrorCodes.BadRequest);
        yield return Row("key over 255 bytes", "PUT", "/docs/" + new string('k', 256), "{}", 400, ErrorCodes.BadRequest);
        // Headers.
        yield return Row("malformed If-Match", "PUT", "/docs/bad/1", "{}", 400, ErrorCodes.BadRequest, header: "If-Match: \"yesterday\"");
        yield return Row("body not declared JSON", "PUT", "/docs/bad/1", "{}", 415, ErrorCodes.UnsupportedMediaType, contentType: "text/plain");
        yield return Row("body without a content type", "POST", "/bulk_docs", "[]", 415, ErrorCodes.UnsupportedMediaType, contentType: null);
        yield return Row("foreign Host", "PUT", "/docs/bad/1", "{}", 400, ErrorCodes.HostNotAllowed, header: "Host: evil.example");
        yield return Row("foreign Origin", "PUT", "/docs/bad/1", "{}", 403, ErrorCodes.CrossSite, header: "Origin: http://evil.example");
        yield return Row("cross-site fetch", "DELETE", "/docs/existing", null, 403, ErrorCodes.CrossSite, header: "Sec-Fetch-Site: cross-site");
        // Bulk commands and multi-get.
        yield return Row("bulk: not JSON", "POST", "/bulk_docs", "[{\"Method\":\"PUT\",}]", 400, ErrorCodes.BadRequest);
        yield return Row("bulk: not an array", "POST", "/bulk_docs", "{}", 400, ErrorCodes.BadRequest);
        yield return Row("bulk: no commands", "POST", "/bulk_docs", "[]", 400, ErrorCodes.BadRequest);
        yield return Row("bulk: unknown method", "POST", "/bulk_docs", "[{\"Method\":\"PATCH\",\"Key\":\"a\"}]", 400, ErrorCodes.BadRequest);
        yield return Row("bulk: second command bad", "POST", "/bulk_docs",
            "[{\"Method\":\"PUT\",\"Key\":\"bulk/ok\",\"Document\":{}},{\"Method\":\"PUT\",\"Key\":\"\",\"Document\":{}}]", 400, ErrorCodes.BadRequest);
        yield return Row("bulk: NUL in a name", "POST", "/bulk_docs",
            "[{\"Method\":\"PUT\",\"Key\":\"bulk/ok\",\"Document\":{\"x\\u0000\":1}}]", 400, ErrorCodes.BadRequest);
        yield return Row("bulk: NUL in a metadata name", "POST", "/bulk_docs",
            "[{\"Method\":\"PUT\",\"Key\":\"bulk/ok\",\"Document\":{},\"Metadata\":{\"m\\u0000\":1}}]", 400, ErrorCodes.BadRequest);
        yield return Row("bulk: bad etag", "POST", "/bulk_docs", "[{\"Method\":\"DELETE\",\"Key\":\"existing\",\"Etag\":\"abc\"}]", 400, ErrorCodes.BadRequest);
        yield return Row("multi-get: not an array", "POST", "/queries", "{\"keys\":[]}", 400, ErrorCodes.BadRequest);
        yield return Row("multi-get: not strings", "POST", "/queries", "[1,2]", 400, ErrorCodes.BadRequest);
        // Index definitions.
        yield return Row("index: not JSON", "PUT", "/indexes/Bad", "{\"Fields\":[", 400, ErrorCodes.BadRequest);
        yield return Row("index: no fields", "PUT", "/indexes/Bad", "{\"Fields\":[]}", 400, ErrorCodes.BadRequest);
        yield return Row("index: unknown member", "PUT", "/indexes/Bad", "{\"Fields\":[{\"Name\":\"A\",\"Path\":\"a\"}],\"Map\":\"x\"}", 400, ErrorCodes.BadRequest);
        yield return Row("index: name differs from URL", "PUT", "/indexes/Bad", "{\"Name\":\"Other\",\"Fields\":[{\"Name\":\"A\",\"Path\":\"a\"}]}", 400, ErrorCodes.BadRequest);
        yield return Row("index: bad path", "PUT", "/indexes/Bad", "{\"Fields\":[{\"Name\":\"A\",\"Path\":\"a[0]\"}]}", 400, ErrorCodes.BadRequest);
        yield return Row("index: device name", "PUT", "/indexes/con", "{\"Fields\":[{\"Name\":\"A\",\"Path\":\"a\"}]}", 400, ErrorCodes.BadRequest);
        yield return Row("index: Kelvin sign", "PUT", "/indexes/%E2%84%AAey", "{\"Fields\":[{\"Name\":\"A\",\"Path\":\"a\"}]}", 400, ErrorCodes.BadRequest);
        yield return Row("index: final sigma", "PUT", "/indexes/%CF%82", "{\"Fields\":[{\"Name\":\"A\",\"Path\":\"a\"}]}", 400, ErrorCodes.BadRequest);
        yield return Row("index: built-in", "PUT", "/indexes/Raven/DocumentsByEntityName", "{\"Fields\":[{\"Name\":\"A\",\"Path\":\"a\"}]}", 403, ErrorCodes.BuiltInIndex);
        yield return Row("index: delete built-in", "DELETE", "/indexes/Raven/DocumentsByEntityName", null, 403, ErrorCodes.BuiltInIndex);
        // Queries and continuation tokens.
        yield return Row("query: unclosed quote", "GET", "/indexes/Raven/DocumentsByEntityName?query=Tag:%22Item", null, 400, ErrorCodes.QueryInvalid);
        yield return Row("query: bad page size", "GET", Query + "&pageSize=abc", null, 400, ErrorCodes.BadRequest);
        yield return Row("query: negative start", "GET", Query + "&start=-1", null, 400, ErrorCodes.BadRequest);
        yield return Row("query: bad timeout", "GET", Query + "&timeout=soon", null, 400, ErrorCodes.BadRequest);
        yield return Row("query: unknown sort field", "GET", Query + "&sort=NoSuchField", null, 400, ErrorCodes.BadRequest);
        yield return Row("query: unknown index", "GET", "/indexes/NoSuch?query=x", null, 404, ErrorCodes.IndexNotFound);
        yield return Row("token: not base64", "GET", Query + "&after=!!!", null, 400, ErrorCodes.BadRequest);
        yield return Row("token: too short", "GET", Query + "&after=AAAA", null, 400, ErrorCodes.BadRequest);
        yield return Row("token: another query's", "GET", Query + "&after=AUep7wZazXSNofcaeqx7J06KmTMNGM6jQwAAAAAAAAABAA", null, 400, ErrorCodes.BadRequest);
        yield return Row("token: with start", "GET", Query + "&start=1&after=AUep7wZazXSNofcaeqx7J06KmTMNGM6jQwAAAAAAAAABAA", null, 400, ErrorCodes.BadRequest);
        yield return Row("list: negative page size", "GET", "/docs?pageSize=-1", null, 400, ErrorCodes.BadRequest);
        // Routes.
        yield return Row("unknown route", "GET", "/nowhere", null, 404, ErrorCodes.RouteNotFound);
        yield return Row("missing document", "GET", "/docs/no/such/document", null, 404, ErrorCodes.DocumentNotFound);
        yield return Row("wrong method", "PATCH", "/docs/existing", null, 405, ErrorCodes.MethodNotAllowed);
    }

    [Theory]
    [MemberData(nameof(Malformed))]
    public async Task Malformed_requests_get_4xx_problem_details_with_their_code_write_nothing_and_leave_the_server_up(
        string name, string method, string path, string? body, string? contentType, string? header, int status, string code)
    {
        await EnsureExistingAsync();
        var before = await StateAsync();

        var request = new HttpRequestMessage(new HttpMethod(method), path);
        if (body is not null)
        {
            request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes(body));
            if (contentType is not null)
                request.Content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        }
        if (header is not null)
        {
            var colon = header.IndexOf(':', StringComparison.Ordinal);
            var (headerName, value) = (header[..colon], header[(colon + 1)..].Trim());
            if (headerName == "Host")
                request.Headers.Host = value;
            else
                request.Headers.TryAddWithoutValidation(headerName, value);
        }
        var message = await JsonAssert.ErrorAsync(await Client.SendAsync(request), (HttpStatusCode)status, code);
        Assert.False(string.IsNullOrWhiteSpace(message), name);

        Assert.Equal(before, await StateAsync());
        await AssertStillServingAsync();
    }

    private async Task EnsureExistingAsync()
    {
        if ((await Client.GetAsync("/docs/existing")).StatusCode == HttpStatusCode.NotFound)
            Assert.Equal(HttpStatusCode.Created, (await _server.PutAsync("existing", "{\"keep\":true}", entityName: "Item")).StatusCode);
    }

    /// <summary>What a write would change: the document count, the last etag and the index list.</summary>
    private async Task<string> StateAsync()
    {
        using var stats = JsonDocument.Parse(await Client.GetStringAsync("/stats"));
        using var indexes = JsonDocument.Parse(await Client.GetStringAsync("/indexes"));
        var names = string.Join(",", indexes.RootElement.EnumerateArray().Select(i => i.GetProperty("Name").GetString()));
        return $"{stats.RootElement.GetProperty("Documents")} docs, last etag {stats.RootElement.GetProperty("LastEtag")}, indexes {names}";
    }
}
