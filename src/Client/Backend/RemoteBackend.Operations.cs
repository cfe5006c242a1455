using System.Globalization;
using System.Net.Http.Headers;
using System.Text.Json;

namespace RavenLite.Client.Backend;

internal sealed partial class RemoteBackend
{
    private static readonly MediaTypeHeaderValue s_jsonPatch = new("application/json-patch+json");

    /// <summary><c>PATCH</c> (with the patch) or <c>DELETE /bulk_docs/{index}?query=&amp;allowStale=&amp;stopOnFailure=</c>.</summary>
    public Task<SetOperationStatus> StartSetOperationAsync(SetOperationRequest request, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        var url = "bulk_docs/" + string.Join('/', request.IndexName.Split('/').Select(Uri.EscapeDataString))
            + "?allowStale=" + (request.AllowStale ? "true" : "false")
            + "&stopOnFailure=" + (request.StopOnFailure ? "true" : "false")
            + (string.IsNullOrEmpty(request.Query) ? "" : "&query=" + Uri.EscapeDataString(request.Query));
        var remote = new RemoteRequest(request.PatchJson is null ? HttpMethod.Delete : HttpMethod.Patch, url, request.PatchJson,
            error => error.Code == ErrorCodes.IndexStale ? new IndexStaleException(error.Message) : RemoteErrors.ToException(error, request.IndexName),
            ContentType: s_jsonPatch);
        return RunAsync(remote, ParseStatus, cancellationToken);
    }

    /// <summary><c>GET /operations/{id}</c>; null for 404 <c>operation-not-found</c>.</summary>
    public Task<SetOperationStatus?> GetOperationAsync(long id, CancellationToken cancellationToken) =>
        OperationAsync(HttpMethod.Get, id, cancellationToken);

    /// <summary><c>DELETE /operations/{id}</c>; null for 404 <c>operation-not-found</c>.</summary>
    public Task<SetOperationStatus?> CancelOperationAsync(long id, CancellationToken cancellationToken) =>
        OperationAsync(HttpMethod.Delete, id, cancellationToken);

    private async Task<SetOperationStatus?> OperationAsync(HttpMethod method, long id, CancellationToken cancellationToken)
    {
        var request = new RemoteRequest(method, "operations/" + id.ToString(CultureInfo.InvariantCulture), null,
            error => error.Code == ErrorCodes.OperationNotFound ? new KeyNotFoundException(error.Message) : RemoteErrors.ToException(error));
        try
        {
            return await RunAsync(request, ParseStatus, cancellationToken).ConfigureAwait(false);
        }
        catch (KeyNotFoundException)
        {
            return null;
        }
    }

    private static SetOperationStatus ParseStatus(JsonElement root) =>
        root.Deserialize<SetOperationStatus>() ?? throw new JsonException("The server answered null for a set operation's status.");
}
