using System.Text.Json;
using RavenLite.Database;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Json;

/// <summary>
/// Documents may not have a top-level member named <c>@metadata</c>: every answer puts the document's metadata there, so
/// such a member would give an object with two <c>@metadata</c> members (issue 30). Writes that would store one (a PUT, a
/// bulk PUT, a bulk insert line, a patch adding it) are refused with 400.
/// </summary>
internal static class ReservedMembers
{
    /// <summary>The reserved name.</summary>
    public const string Metadata = "@metadata";

    /// <summary>The refusal, as a sentence.</summary>
    public const string Refusal =
        "A document cannot have a top-level member named '@metadata': answers carry the document's metadata there. " +
        "Send metadata as the Metadata of a bulk command or as Raven-* headers, or rename the member.";

    private static readonly JsonReaderOptions s_options = new() { MaxDepth = 256 };

    /// <summary>Whether the JSON object in <paramref name="utf8Json"/> has a top-level <c>@metadata</c> member (escaped or not).</summary>
    public static bool HasMetadata(ReadOnlySpan<byte> utf8Json)
    {
        // A cheap look first: without "metadata" or an escape, the name cannot be there.
        if (utf8Json.IndexOf("metadata"u8) < 0 && utf8Json.IndexOf("\\u"u8) < 0)
            return false;
        var reader = new Utf8JsonReader(utf8Json, s_options);
        try
        {
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
                return false;
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                if (reader.ValueTextEquals("@metadata"u8))
                    return true;
                reader.Read();
                reader.Skip();
            }
        }
        catch (JsonException)
        {
            // Malformed: the parser that reads it for storing says what is wrong, and where.
        }
        return false;
    }

    /// <exception cref="RequestException">400: the body has a top-level <c>@metadata</c> member.</exception>
    public static void ThrowIfMetadata(ReadOnlySpan<byte> utf8Json, string? where = null)
    {
        if (HasMetadata(utf8Json))
            throw RequestException.BadRequest(where is null ? Refusal : $"{where}: {Refusal}");
    }

    /// <exception cref="RequestException">400: the document has a top-level <c>@metadata</c> member.</exception>
    public static void ThrowIfMetadata(JsonElement document, string? where = null)
    {
        if (document.ValueKind == JsonValueKind.Object && document.TryGetProperty(Metadata, out _))
            throw RequestException.BadRequest(where is null ? Refusal : $"{where}: {Refusal}");
    }

    /// <exception cref="RequestException">400: an operation would add, copy, move or replace a top-level <c>@metadata</c> member.</exception>
    public static void ThrowIfMetadata(DocumentPatch patch, string? where = null)
    {
        if (patch.Operations.Any(o => o.Path == "/" + Metadata && o.Op is not ("remove" or "test")))
            throw RequestException.BadRequest(where is null ? Refusal : $"{where}: {Refusal}");
    }
}
