using System.Globalization;
using System.Text.Json;

namespace RavenLite.Client.Backend;

/// <summary>
/// An error answer from the server: its status and what its problem details body (RFC 9457) says: the
/// <see cref="ErrorCodes">code</see>, the human-readable detail and, for a concurrency conflict, the conflict's data.
/// </summary>
internal sealed record RemoteError(int Status, string? Code, string Message)
{
    /// <summary>Of a conflict: the document's key.</summary>
    public string? Key { get; init; }

    /// <summary>Of a conflict: the etag the write expected.</summary>
    public long? ExpectedEtag { get; init; }

    /// <summary>Of a conflict: the document's current etag; null when it does not exist.</summary>
    public long? ActualEtag { get; init; }

    /// <summary>Of a conflict in a batch: the index of the command that failed.</summary>
    public int? CommandIndex { get; init; }

    /// <summary>Of storage that could not be reached: true when the write may have been stored.</summary>
    public bool OutcomeUnknown { get; init; }

    /// <summary>
    /// Reads the body; one that is not problem details (a proxy's page, a broken connection) gives an error with no
    /// code and a message naming the request and the status.
    /// </summary>
    public static RemoteError Read(int status, Stream body, string request)
    {
        var fallback = $"{request} failed with HTTP status {status}.";
        try
        {
            using var json = JsonDocument.Parse(body);
            var root = json.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
                return new RemoteError(status, null, fallback);
            return new RemoteError(status, String(root, ErrorCodes.CodeMember), String(root, "detail") ?? fallback)
            {
                Key = String(root, ErrorCodes.KeyMember),
                ExpectedEtag = Etag(root, ErrorCodes.ExpectedEtagMember),
                ActualEtag = Etag(root, ErrorCodes.ActualEtagMember),
                CommandIndex = root.TryGetProperty(ErrorCodes.CommandIndexMember, out var index) && index.ValueKind == JsonValueKind.Number
                               && index.TryGetInt32(out var i) ? i : null,
                OutcomeUnknown = root.TryGetProperty(ErrorCodes.OutcomeUnknownMember, out var unknown) && unknown.ValueKind == JsonValueKind.True,
            };
        }
        catch (JsonException)
        {
            return new RemoteError(status, null, fallback);
        }
    }

    private static string? String(JsonElement root, string name) =>
        root.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;

    private static long? Etag(JsonElement root, string name) =>
        long.TryParse(String(root, name), NumberStyles.None, CultureInfo.InvariantCulture, out var etag) ? etag : null;
}
