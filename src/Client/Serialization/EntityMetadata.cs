using System.Buffers;
using System.Text.Json;
using RavenLite.Client.Backend;

namespace RavenLite.Client.Serialization;

/// <summary>The metadata a session writes and reads: <c>Raven-Entity-Name</c> and <c>Raven-Clr-Type</c>.</summary>
internal static class EntityMetadata
{
    /// <summary>The metadata member naming the CLR type an entity was stored as.</summary>
    public const string ClrType = "Raven-Clr-Type";

    /// <summary><c>Namespace.Type, Assembly</c>: what <see cref="Type.GetType(string)"/> resolves.</summary>
    public static string ClrTypeName(Type type) => $"{type.FullName}, {type.Assembly.GetName().Name}";

    /// <summary>The metadata of a new document.</summary>
    public static byte[] ForNew(string entityName, Type type) => Write(json =>
    {
        json.WriteString(MetadataNames.EntityName, entityName);
        json.WriteString(ClrType, ClrTypeName(type));
    });

    /// <summary>
    /// The metadata of an update: what was loaded, kept as it is (its entity name too: a document stays in its
    /// collection), with <c>Raven-Clr-Type</c> set to the entity's type.
    /// </summary>
    public static byte[] ForUpdate(ReadOnlyMemory<byte> loaded, Type type) => Write(json =>
    {
        var reader = new Utf8JsonReader(loaded.Span);
        if (reader.Read() && reader.TokenType == JsonTokenType.StartObject)
        {
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                var keep = !reader.ValueTextEquals(ClrType);
                if (keep)
                    json.WritePropertyName(reader.GetString()!);
                reader.Read();
                var start = (int)reader.TokenStartIndex;
                reader.Skip();
                if (keep)
                    json.WriteRawValue(loaded.Span[start..(int)reader.BytesConsumed], skipInputValidation: true);
            }
        }
        json.WriteString(ClrType, ClrTypeName(type));
    });

    /// <summary>The string member <paramref name="name"/> of a metadata object, or null.</summary>
    public static string? Read(ReadOnlyMemory<byte> metadata, string name)
    {
        var reader = new Utf8JsonReader(metadata.Span);
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            return null;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var match = reader.ValueTextEquals(name);
            reader.Read();
            if (match)
                return reader.TokenType == JsonTokenType.String ? reader.GetString() : null;
            reader.Skip();
        }
        return null;
    }

    private static byte[] Write(Action<Utf8JsonWriter> members)
    {
        var buffer = new ArrayBufferWriter<byte>(128);
        using (var json = new Utf8JsonWriter(buffer, RemoteDocuments.WriterOptions))
        {
            json.WriteStartObject();
            members(json);
            json.WriteEndObject();
        }
        return buffer.WrittenSpan.ToArray();
    }
}
