using System.Net;
using System.Text;
using RavenLite.Client.Backend;

namespace RavenLite.Client.Tests.Backend;

/// <summary>The server's problem details become the exceptions the embedded database throws, by code, never by message.</summary>
public sealed class RemoteErrorsTests
{
    private static RemoteError Read(int status, string body) =>
        RemoteError.Read(status, new MemoryStream(Encoding.UTF8.GetBytes(body)), "POST /bulk_docs");

    private static string Problem(int status, string code, string detail, string members = "") =>
        $$"""{"type":"https://tools.ietf.org/html/rfc9110","title":"t","status":{{status}},"detail":"{{detail}}","code":"{{code}}"{{members}}}""";

    [Fact]
    public void A_batch_conflict_becomes_ConcurrencyException_from_the_members()
    {
        var error = Read(409, Problem(409, "concurrency-conflict", "Batch command 1: whatever the text says",
            ""","key":"carts/2","expectedEtag":"9","actualEtag":"12","commandIndex":1"""));
        var conflict = Assert.IsType<ConcurrencyException>(RemoteErrors.ToException(error));
        Assert.Equal("carts/2", conflict.Key);
        Assert.Equal(1, conflict.CommandIndex);
        Assert.Equal(9, conflict.ExpectedEtag);
        Assert.Equal(12, conflict.ActualEtag);
    }

    [Fact]
    public void A_conflict_on_a_missing_document_outside_a_batch_has_no_actual_etag_and_no_command_index()
    {
        var error = Read(409, Problem(409, "concurrency-conflict", "conflict",
            ""","key":"carts/1","expectedEtag":"4","actualEtag":null,"commandIndex":null"""));
        var conflict = Assert.IsType<ConcurrencyException>(RemoteErrors.ToException(error));
        Assert.Null(conflict.ActualEtag);
        Assert.Null(conflict.CommandIndex);
        Assert.Equal(4, conflict.ExpectedEtag);
    }

    [Theory]
    [InlineData("query-invalid", 400, typeof(QueryException))]
    [InlineData("bad-request", 400, typeof(ArgumentException))]
    [InlineData("payload-too-large", 413, typeof(ArgumentException))]
    [InlineData("limit-exceeded", 400, typeof(LimitExceededException))]
    [InlineData("index-stale", 504, typeof(TimeoutException))]
    [InlineData("unavailable", 503, typeof(ObjectDisposedException))]
    [InlineData("storage-full", 507, typeof(StorageFullException))]
    [InlineData("storage-unavailable", 503, typeof(StorageUnavailableException))]
    [InlineData("read-only", 403, typeof(StorageUnavailableException))]
    [InlineData("unauthorized", 401, typeof(HttpRequestException))]
    [InlineData("cross-site", 403, typeof(HttpRequestException))]
    [InlineData("internal", 500, typeof(HttpRequestException))]
    [InlineData("a-code-from-a-newer-server", 422, typeof(HttpRequestException))]
    public void Each_code_maps_to_the_embedded_exception_and_keeps_the_detail(string code, int status, Type expected)
    {
        var exception = RemoteErrors.ToException(Read(status, Problem(status, code, "the server's words")), indexName: "Orders/ByCustomer");
        Assert.IsType(expected, exception);
        Assert.Contains("the server's words", exception.Message, StringComparison.Ordinal);
        if (exception is HttpRequestException http)
            Assert.Equal((HttpStatusCode)status, http.StatusCode);
    }

    [Theory]
    [InlineData("storage-unavailable", 503, ",\"outcomeUnknown\":true", false, true)]
    [InlineData("storage-unavailable", 503, ",\"outcomeUnknown\":false", false, false)]
    [InlineData("read-only", 403, "", true, false)]
    public void Unreachable_or_read_only_storage_becomes_StorageUnavailableException_as_embedded(
        string code, int status, string members, bool readOnly, bool outcomeUnknown)
    {
        var unavailable = Assert.IsType<StorageUnavailableException>(RemoteErrors.ToException(Read(status, Problem(status, code, "standby", members))));
        Assert.Equal(readOnly, unavailable.ReadOnly);
        Assert.Equal(outcomeUnknown, unavailable.OutcomeUnknown);
    }

    [Fact]
    public void An_index_not_found_names_the_index_asked_for()
    {
        var missing = Assert.IsType<IndexNotFoundException>(
            RemoteErrors.ToException(Read(404, Problem(404, "index-not-found", "There is no index named 'x'.")), "x"));
        Assert.Equal("x", missing.IndexName);
    }

    [Fact]
    public void The_code_decides_not_the_message_or_the_status()
    {
        // A detail that reads like a query error, under the bad-request code, stays a bad argument.
        Assert.IsType<ArgumentException>(RemoteErrors.ToException(Read(400, Problem(400, "bad-request", "Cannot parse query 'a:' at position 2"))));
        // A 409 without conflict members (a proxy, or another kind of conflict) is not invented into a ConcurrencyException.
        Assert.IsType<HttpRequestException>(RemoteErrors.ToException(Read(409, Problem(409, "concurrency-conflict", "no members"))));
    }

    [Theory]
    [InlineData("<html>Bad gateway</html>")]
    [InlineData("")]
    [InlineData("[1,2]")]
    [InlineData("""{"Error":"an old server's body"}""")]
    public void A_body_that_is_not_problem_details_names_the_request_and_status(string body)
    {
        var error = Read(502, body);
        Assert.Null(error.Code);
        var exception = Assert.IsType<HttpRequestException>(RemoteErrors.ToException(error));
        Assert.Equal("POST /bulk_docs failed with HTTP status 502.", exception.Message);
        Assert.Equal(HttpStatusCode.BadGateway, exception.StatusCode);
    }
}
