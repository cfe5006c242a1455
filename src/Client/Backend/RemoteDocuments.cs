using System.Buffers;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace RavenLite.Client.Backend;

/// <summary>
/// Splits a document as the server writes it (<c>{...data..., "@metadata": {"@id", "@etag", "Last-Modified", stored...}}</c>)
/// into its key, etag, data and stored metadata (without the names <see cref="MetadataNames.IsReserved(string)"/> reserves),
/// copying the members' JSON as it came. The one reader of the server's document shape, for sessions and raw commands.
/// </summary>
internal static class RemoteDocuments
{
    /// <summary>As the server writes JSON: only what JSON requires is escaped.</summary>
    public static readonly JsonWriterOptions WriterOptions = new()
    {
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        SkipValidation = true,
    };

    public static StoredDocument Read(JsonElement element)
    {
        if (element.ValueKind != JsonValueKind.Object || !element.TryGetProperty(MetadataNames.Metadata, out var metadata))
            throw new InvalidDataException("The server sent a document without @metadata.");
        var key = metadata.GetProperty(MetadataNames.Id).GetString()!;
        var etag = long.Parse(metadata.GetProperty(MetadataNames.Etag).GetString()!, CultureInfo.InvariantCulture);
        var data = Copy(element, skip: static name => name == MetadataNames.Metadata);
        var stored = Copy(metadata, skip: MetadataNames.IsReserved);
        return new StoredDocument(key, etag, data, stored);
    }

    private static byte[] Copy(JsonElement source, Func<string, bool> skip)
    {
        var buffer = new ArrayBufferWriter<byte>(JsonMarshal.GetRawUtf8Value(source).Length);
        using (var json = new Utf8JsonWriter(buffer, WriterOptions))
        {
            json.WriteStartObject();
            foreach (var property in source.EnumerateObject())
            {
                if (skip(property.Name))
                    continue;
                json.WritePropertyName(property.Name);
                json.WriteRawValue(JsonMarshal.GetRawUtf8Value(property.Value), skipInputValidation: true);
            }
            json.WriteEndObject();
        }
        return buffer.WrittenSpan.ToArray();
    }
}
