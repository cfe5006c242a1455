using System.Buffers;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace RavenLite.Client.Backend;

/// <summary>
/// Splits a document as the server writes it (<c>{...data..., "@metadata": {"@id", "@etag", "Last-Modified", stored...}}</c>)
/// into its key, etag, data and stored metadata, copying the members' JSON as it came.
/// </summary>
internal static class RemoteDocuments
{
    private const string MetadataName = "@metadata";

    /// <summary>As the server writes JSON: only what JSON requires is escaped.</summary>
    public static readonly JsonWriterOptions WriterOptions = new()
    {
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        SkipValidation = true,
    };

    public static StoredDocument Read(JsonElement element)
    {
        if (element.ValueKind != JsonValueKind.Object || !element.TryGetProperty(MetadataName, out var metadata))
            throw new InvalidDataException("The server sent a document without @metadata.");
        var key = metadata.GetProperty("@id").GetString()!;
        var etag = long.Parse(metadata.GetProperty("@etag").GetString()!, CultureInfo.InvariantCulture);
        var data = Copy(element, skip: static name => name == MetadataName);
        var stored = Copy(metadata, skip: static name => name.StartsWith('@') || name == "Last-Modified");
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
