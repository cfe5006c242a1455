using System.Buffers;
using System.Security.Cryptography;
using System.Text.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Http;

/// <summary>
/// The <c>ETag</c> of a multi-get answer: a hash of the keys asked for and the etag each one has now (or that it has
/// none), so any write to one of them gives a new tag.
/// </summary>
internal static class MultiGetETag
{
    /// <summary>The tag in header form: 32 hex digits of a SHA-256, in double quotes.</summary>
    public static string Compute(IReadOnlyList<string> keys, IReadOnlyList<Document?> documents,
        IReadOnlyList<string>? includePaths = null, IReadOnlyList<Document>? includes = null)
    {
        var input = new ArrayBufferWriter<byte>(64 + 32 * keys.Count);
        // A JSON array of [key, etag] pairs, so no two different answers can run together into the same bytes.
        using (var json = new Utf8JsonWriter(input))
        {
            json.WriteStartArray();
            for (var i = 0; i < keys.Count; i++)
            {
                json.WriteStringValue(keys[i]);
                json.WriteNumberValue(documents[i]?.Etag ?? -1);
            }
            // Included documents change the answer too: the paths asked for, then each included document's key and etag.
            foreach (var path in includePaths ?? [])
                json.WriteStringValue("include:" + path);
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
