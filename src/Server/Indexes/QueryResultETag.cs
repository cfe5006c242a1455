using System.Buffers;
using System.Security.Cryptography;
using System.Text.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Indexes;

/// <summary>
/// The <c>ETag</c> of a query response: a hash of everything the body depends on, which is the
/// <see cref="QueryResponseKey"/>: the index's version (its build, which a new definition or a reset changes; how far it
/// has indexed and when it last committed; the database's last etag, so any write gives a new tag) and the query's
/// parameters, with the page size used; with include paths, also each included document's key and etag, as the
/// multi-get tag has them.
/// </summary>
internal static class QueryResultETag
{
    /// <summary>The tag in header form: 32 hex digits of a SHA-256, in double quotes.</summary>
    public static string Compute(in QueryResponseKey key, int pageSizeUsed, IReadOnlyList<Document>? includes = null)
    {
        var input = new ArrayBufferWriter<byte>(256);
        // A JSON array of the inputs, so no two different sets of values can run together into the same bytes.
        using (var json = new Utf8JsonWriter(input))
        {
            json.WriteStartArray();
            json.WriteStringValue(key.IndexName);
            json.WriteStringValue(key.Version.Generation);
            json.WriteNumberValue(key.Version.IndexEtag);
            if (key.Version.IndexTimestamp is { } timestamp)
                json.WriteNumberValue(timestamp.UtcTicks);
            else
                json.WriteNullValue();
            json.WriteNumberValue(key.Version.DatabaseEtag);
            json.WriteStringValue(key.Query);
            json.WriteNumberValue(key.Start);
            if (key.PageSize is { } pageSize)
                json.WriteNumberValue(pageSize);
            else
                json.WriteNullValue();
            json.WriteNumberValue(pageSizeUsed);
            json.WriteStringValue(key.Sort);
            json.WriteStringValue(key.Continuation);
            if (key.Shape.Length > 0)
                json.WriteStringValue(key.Shape);
            foreach (var included in includes ?? [])
            {
                json.WriteStringValue(included.Key);
                json.WriteNumberValue(included.Etag);
            }
            json.WriteEndArray();
        }
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(input.WrittenSpan, hash);
        return "\"" + Convert.ToHexStringLower(hash[..16]) + "\"";
    }
}
