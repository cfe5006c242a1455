using System.Buffers;
using System.Security.Cryptography;
using System.Text.Json;
using RavenLite.Indexing;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Server.Indexes;

/// <summary>
/// The <c>ETag</c> of a query response: a hash of everything the body depends on. The index's definition, how far
/// it has indexed (<see cref="QueryResult.IndexEtag"/>) and when it last committed (<see cref="QueryResult.IndexTimestamp"/>,
/// which also changes when the index is reset or rebuilt), the database's last etag (so any write, even one the
/// index has not seen yet, gives a new tag: the loaded documents may have changed), and the query's parameters.
/// </summary>
internal static class QueryResultETag
{
    /// <summary>The tag in header form: 32 hex digits of a SHA-256, in double quotes.</summary>
    public static string Compute(IndexDefinition? definition, QueryResult result, IndexQuery query)
    {
        var input = new ArrayBufferWriter<byte>(512);
        // A JSON array of the inputs, so no two different sets of values can run together into the same bytes.
        using (var json = new Utf8JsonWriter(input))
        {
            json.WriteStartArray();
            json.WriteStringValue(result.IndexName);
            json.WriteStringValue(definition?.ToJson());
            json.WriteNumberValue(result.IndexEtag);
            if (result.IndexTimestamp is { } timestamp)
                json.WriteNumberValue(timestamp.UtcTicks);
            else
                json.WriteNullValue();
            json.WriteNumberValue(result.DatabaseEtag);
            json.WriteStringValue(query.Query);
            json.WriteNumberValue(query.Start);
            if (query.PageSize is { } pageSize)
                json.WriteNumberValue(pageSize);
            else
                json.WriteNullValue();
            json.WriteNumberValue(result.PageSize);
            json.WriteStartArray();
            foreach (var sort in query.SortBy ?? [])
                json.WriteStringValue(sort);
            json.WriteEndArray();
            json.WriteStringValue(query.Continuation);
            json.WriteEndArray();
        }
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(input.WrittenSpan, hash);
        return "\"" + Convert.ToHexStringLower(hash[..16]) + "\"";
    }
}
