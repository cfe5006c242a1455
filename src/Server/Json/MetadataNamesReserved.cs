using RavenLite.Storage.Documents;

namespace RavenLite.Server.Json;

/// <summary>Metadata names the server computes on every read, and so never stores from a request.</summary>
internal static class MetadataNamesReserved
{
    /// <summary>True for <c>@</c>-prefixed names (<c>@id</c>, <c>@etag</c>, ...) and <c>Last-Modified</c>.</summary>
    public static bool IsReserved(string name) =>
        name.StartsWith('@') || name.Equals(MetadataNames.LastModified, StringComparison.OrdinalIgnoreCase);
}
