using RavenLite.Client.Backend;
using RavenLite.Indexing;
using RavenLite.Storage;

namespace RavenLite.Client.Tests.Backend;

/// <summary>The server's error statuses become the exceptions the embedded database throws.</summary>
public sealed class RemoteErrorsTests
{
    private static readonly WriteCommand[] s_commands =
        [WriteCommand.Put("carts/1", "{}"u8.ToArray(), "{}"u8.ToArray(), 4), WriteCommand.Delete("carts/2", 9)];

    [Fact]
    public void A_batch_conflict_becomes_ConcurrencyException_naming_the_command()
    {
        var error = RemoteErrors.ForBatch(new RemoteError(409,
            "Batch command 1: concurrency conflict on document 'carts/2': expected etag 9, but its current etag is 12. Nothing was written."), s_commands);
        var conflict = Assert.IsType<ConcurrencyException>(error);
        Assert.Equal("carts/2", conflict.Key);
        Assert.Equal(1, conflict.CommandIndex);
        Assert.Equal(9, conflict.ExpectedEtag);
        Assert.Equal(12, conflict.ActualEtag);
    }

    [Fact]
    public void A_conflict_on_a_missing_document_has_no_actual_etag()
    {
        var error = RemoteErrors.ForBatch(new RemoteError(409,
            "Batch command 0: concurrency conflict on document 'carts/1': expected etag 4, but it does not exist. Nothing was written."), s_commands);
        Assert.Null(Assert.IsType<ConcurrencyException>(error).ActualEtag);
    }

    [Fact]
    public void Query_errors_map_by_status()
    {
        Assert.IsType<IndexNotFoundException>(RemoteErrors.ForQuery(new RemoteError(404, "There is no index named 'x'."), "x"));
        Assert.IsType<QueryException>(RemoteErrors.ForQuery(new RemoteError(400, "Cannot parse query 'a:' at position 2: ..."), "x"));
        Assert.IsType<ArgumentException>(RemoteErrors.ForQuery(new RemoteError(400, "Query parameter 'pageSize' must be ..."), "x"));
        var timeout = Assert.IsType<TimeoutException>(RemoteErrors.ForQuery(new RemoteError(504, "Index 'x' is still stale after waiting 0.2 s"), "x"));
        Assert.Contains("still stale", timeout.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Other_statuses_keep_the_server_message()
    {
        Assert.IsType<ArgumentException>(RemoteErrors.ForDocuments(new RemoteError(400, "A document key cannot be empty.")));
        Assert.IsType<ObjectDisposedException>(RemoteErrors.ForDocuments(new RemoteError(503, "The database is closed.")));
        var other = Assert.IsType<HttpRequestException>(RemoteErrors.ForDocuments(new RemoteError(500, "unexpected")));
        Assert.Equal(System.Net.HttpStatusCode.InternalServerError, other.StatusCode);
    }
}
