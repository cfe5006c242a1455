using System.Net;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Routing;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Security;

/// <summary>
/// Issue 30: keys with scopes. Every route of the server, under no key, a read key, a write key and an admin key: no key
/// is 401; a key whose scope is too small is 403 <c>scope-missing</c>; a key whose scope covers the route gets past the
/// check (whatever the route then answers to an empty request).
/// </summary>
public sealed partial class ScopeMatrixTests : IAsyncLifetime
{
    private const string ReadKey = "scope-matrix-read-key-0123456789";
    private const string WriteKey = "scope-matrix-write-key-0123456789";
    private const string AdminKey = "scope-matrix-admin-key-0123456789";

    /// <summary>The scope each route needs. A route missing here fails the test: every route must be in the matrix.</summary>
    private static readonly Dictionary<string, string> s_expected = new(StringComparer.Ordinal)
    {
        ["GET /docs/{**id}"] = "read",
        ["HEAD /docs/{**id}"] = "read",
        ["PUT /docs/{**id}"] = "write",
        ["DELETE /docs/{**id}"] = "write",
        ["PATCH /docs/{**id}"] = "write",
        ["POST /docs"] = "write",
        ["GET /docs"] = "read",
        ["GET /changes"] = "read",
        ["POST /bulk_docs"] = "write",
        ["POST /bulk_insert"] = "write",
        ["PATCH /bulk_docs/{**index}"] = "write",
        ["DELETE /bulk_docs/{**index}"] = "write",
        ["GET /operations"] = "read",
        ["GET /operations/{id}"] = "read",
        ["DELETE /operations/{id}"] = "write",
        ["POST /queries"] = "read",
        ["GET /indexes"] = "read",
        ["GET /indexes/{**name}"] = "read",
        ["PUT /indexes/{**name}"] = "admin",
        ["DELETE /indexes/{**name}"] = "admin",
        ["GET /stats"] = "read",
        ["GET /health"] = "read",
        ["GET /health/ready"] = "read",
        ["POST /admin/backup"] = "admin",
        ["GET /admin/backups"] = "admin",
        ["GET /admin/backups/{id}"] = "admin",
        ["GET /keys/current"] = "read",
        ["POST /admin/keys/reload"] = "admin",
        ["GET /openapi/{documentName}.json"] = "read",
        ["GET /scalar/scalar.js"] = "read",
        ["GET /scalar/scalar.aspnetcore.js"] = "read",
        ["GET /scalar/favicon.svg"] = "read",
        ["GET /scalar/{documentName?}"] = "read",
    };

    private TestServer _server = null!;

    public async Task InitializeAsync()
    {
        var keys = Path.Combine(Path.GetTempPath(), "ravenlite-server-tests", Guid.NewGuid().ToString("N") + ".keys");
        Directory.CreateDirectory(Path.GetDirectoryName(keys)!);
        File.WriteAllLines(keys, ["# scope key", $"read {ReadKey}", $"write {WriteKey}"]);
        // The admin key comes from the environment-style list, the others from the file.
        _server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--api-keys-file", keys,
            "--RavenLite:ApiKeys:0:Key=" + AdminKey, "--RavenLite:ApiKeys:0:Scope=Admin", "--RavenLite:AuthFailuresPerMinute=1000"]);
        File.Delete(keys);
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private IEnumerable<(string Method, string Pattern)> Routes() =>
        ((IEndpointRouteBuilder)_server.App).DataSources.SelectMany(source => source.Endpoints).OfType<RouteEndpoint>()
            .SelectMany(endpoint => (endpoint.Metadata.GetMetadata<HttpMethodMetadata>()?.HttpMethods ?? ["GET"])
                .Select(method => (method, "/" + endpoint.RoutePattern.RawText!.TrimStart('/'))));

    [Fact]
    public void Every_route_is_in_the_matrix()
    {
        var missing = Routes().Select(r => $"{r.Method} {r.Pattern}").Where(route => !s_expected.ContainsKey(route)).ToList();
        Assert.True(missing.Count == 0, "Routes with no expected scope: " + string.Join(", ", missing));
    }

    [Fact]
    public async Task Every_route_under_no_key_a_read_key_a_write_key_and_an_admin_key()
    {
        var failures = new List<string>();
        foreach (var (method, pattern) in Routes())
        {
            var needs = s_expected.GetValueOrDefault($"{method} {pattern}", "admin");
            var url = Parameter().Replace(pattern, match => match.Value.Contains("documentName", StringComparison.Ordinal) ? "v1" : "matrix/x");
            foreach (var (key, scope) in new[] { ((string?)null, "none"), (ReadKey, "read"), (WriteKey, "write"), (AdminKey, "admin") })
            {
                using var request = new HttpRequestMessage(new HttpMethod(method), url);
                if (key is not null)
                    request.Headers.Add("X-Api-Key", key);
                using var response = await _server.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
                var expected = scope == "none" ? HttpStatusCode.Unauthorized
                    : Rank(scope) < Rank(needs) ? HttpStatusCode.Forbidden
                    : (HttpStatusCode?)null;
                var status = response.StatusCode;
                var ok = expected is { } refused
                    ? status == refused
                    : status is not (HttpStatusCode.Unauthorized or HttpStatusCode.Forbidden);
                if (expected == HttpStatusCode.Forbidden && ok)
                    ok = (await response.Content.ReadAsStringAsync()).Contains("\"code\":\"scope-missing\"", StringComparison.Ordinal);
                if (!ok)
                    failures.Add($"{method} {url} with {scope} key: {(int)status}, expected {(expected is null ? "past the check" : ((int)expected).ToString(System.Globalization.CultureInfo.InvariantCulture))}");
            }
        }
        Assert.True(failures.Count == 0, string.Join(Environment.NewLine, failures));
    }

    [Fact]
    public async Task A_missing_scope_is_a_403_problem_saying_what_the_key_may_do_and_what_the_route_needs()
    {
        using var request = new HttpRequestMessage(HttpMethod.Delete, "/indexes/Orders/ByCustomer");
        request.Headers.Add("X-Api-Key", WriteKey);

        var detail = await JsonAssert.ErrorAsync(await _server.Client.SendAsync(request), HttpStatusCode.Forbidden, ErrorCodes.ScopeMissing);

        Assert.Equal("This key may read and write documents (write scope); DELETE /indexes/Orders/ByCustomer needs the admin scope.", detail);
    }

    [Theory]
    [InlineData("read short", "at least 16 characters")]
    [InlineData("reader scope-matrix-key-0123456789", "expected '<scope> <key>'")]
    [InlineData("read scope-matrix-key-0123456789\nadmin scope-matrix-key-0123456789", "give one key two scopes")]
    [InlineData("read certificate:AB12CD", "64 hex digits")]
    public void A_bad_keys_file_refuses_to_start_with_exit_code_2(string content, string expected)
    {
        var keys = Path.Combine(Path.GetTempPath(), "ravenlite-server-tests", Guid.NewGuid().ToString("N") + ".keys");
        Directory.CreateDirectory(Path.GetDirectoryName(keys)!);
        File.WriteAllText(keys, content);
        try
        {
            var ex = Assert.Throws<ServerStartupException>(() => RavenLiteServer.Build(["--data-dir", TestServer.NewDataDirectory(), "--api-keys-file", keys]));
            Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
            Assert.Equal(ServerStartupException.ConfigurationExitCode, ex.ExitCode);
        }
        finally
        {
            File.Delete(keys);
        }
    }

    private static int Rank(string scope) => scope switch { "read" => 0, "write" => 1, _ => 2 };

    [GeneratedRegex(@"\{[^}]+\}")]
    private static partial Regex Parameter();
}
