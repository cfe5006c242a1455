using System.Buffers;
using System.Globalization;
using System.Text.Json;
using RavenLite.Server.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Http;

/// <summary>
/// Document metadata as HTTP headers: <c>Raven-*</c> request headers become the stored metadata of a put;
/// a read sends the stored string <c>Raven-*</c> members back as headers, with <c>Last-Modified</c>.
/// </summary>
internal static class MetadataHeaders
{
    private const string Prefix = "Raven-";

    /// <summary>The metadata a put carries in its <c>Raven-*</c> headers (empty when there are none).</summary>
    public static DocumentContent FromRequest(HttpRequest request)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        var any = false;
        using (var json = new Utf8JsonWriter(buffer, JsonOutput.WriterOptions))
        {
            json.WriteStartObject();
            foreach (var (name, values) in request.Headers)
            {
                if (!name.StartsWith(Prefix, StringComparison.OrdinalIgnoreCase))
                    continue;
                var canonical = name.Equals(MetadataNames.EntityName, StringComparison.OrdinalIgnoreCase) ? MetadataNames.EntityName : name;
                json.WriteString(canonical, values.ToString());
                any = true;
            }
            json.WriteEndObject();
        }
        return any ? DocumentContent.FromJson(buffer.WrittenSpan) : DocumentContent.Empty;
    }

    /// <summary>Sets <c>Last-Modified</c> and one header per stored string <c>Raven-*</c> metadata member.</summary>
    /// <remarks>Values that cannot travel as a header (non-ASCII, control characters) are left out; the
    /// <c>@metadata</c> of <c>GET /docs</c> and <c>POST /queries</c> carries them.</remarks>
    public static void WriteResponse(HttpResponse response, Document document)
    {
        response.Headers.LastModified = document.LastModified.ToUniversalTime().ToString("R", CultureInfo.InvariantCulture);
        var reader = new Utf8JsonReader(document.MetadataJson.Span, JsonOutput.MetadataReaderOptions);
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            return;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var name = reader.GetString()!;
            reader.Read();
            if (reader.TokenType == JsonTokenType.String)
            {
                var value = reader.GetString()!;
                if (name.StartsWith(Prefix, StringComparison.OrdinalIgnoreCase) && IsToken(name) && IsHeaderValue(value))
                    response.Headers[name] = value;
            }
            else
            {
                reader.Skip();
            }
        }
    }

    private static bool IsToken(string name) =>
        name.All(c => c is > ' ' and < '\u007f' && !"()<>@,;:\\\"/[]?={}".Contains(c, StringComparison.Ordinal));

    private static bool IsHeaderValue(string value) => value.All(c => c is >= ' ' and < '\u007f');
}
