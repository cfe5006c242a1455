using System.Text;
using Newtonsoft.Json;

namespace RavenLite.Client.Serialization;

/// <summary>
/// Entities to and from UTF-8 JSON with Newtonsoft.Json, under the store's settings. Reads go straight from the
/// bytes a backend hands over (the document cache's JSON when embedded), with no intermediate tree.
/// </summary>
internal sealed class EntitySerializer(JsonSerializerSettings settings)
{
    private static readonly UTF8Encoding s_utf8 = new(encoderShouldEmitUTF8Identifier: false);
    private readonly JsonSerializer _serializer = JsonSerializer.Create(settings);

    /// <summary>The entity as UTF-8 JSON; an <see cref="ArgumentException"/> when it cannot be, or is not an object.</summary>
    public byte[] Serialize(object entity, string key)
    {
        using var stream = new MemoryStream(512);
        try
        {
            using (var text = new StreamWriter(stream, s_utf8, bufferSize: 1024, leaveOpen: true))
            using (var json = new JsonTextWriter(text) { Formatting = Formatting.None, ArrayPool = PooledJsonChars.Instance })
                _serializer.Serialize(json, entity);
        }
        catch (Exception ex) when (ex is JsonException or NotSupportedException or InvalidOperationException)
        {
            throw new ArgumentException($"The entity '{key}' ({entity.GetType()}) cannot be serialized to JSON: {ex.Message}", nameof(entity), ex);
        }
        if (stream.Length == 0 || stream.GetBuffer()[0] != (byte)'{')
            throw new ArgumentException($"The entity '{key}' ({entity.GetType()}) must serialize to a JSON object; a document is one.", nameof(entity));
        return stream.ToArray();
    }

    /// <summary>The JSON name the store's settings give <paramref name="member"/> of <paramref name="type"/>.</summary>
    public string JsonName(Type type, System.Reflection.MemberInfo member) =>
        _serializer.ContractResolver.ResolveContract(type) is Newtonsoft.Json.Serialization.JsonObjectContract contract
        && contract.Properties.FirstOrDefault(p => p.UnderlyingName == member.Name) is { PropertyName: { } name }
            ? name
            : member.Name;

    /// <summary>A value as the store's settings serialize it inside an entity (for patch values).</summary>
    public Newtonsoft.Json.Linq.JToken ToToken(object? value) =>
        value is null ? Newtonsoft.Json.Linq.JValue.CreateNull() : Newtonsoft.Json.Linq.JToken.FromObject(value, _serializer);

    /// <summary>Reads an entity of <paramref name="type"/> from UTF-8 JSON.</summary>
    public object Deserialize(ReadOnlyMemory<byte> json, Type type, string key)
    {
        using var text = new PooledCharReader(json.Span);
        using var reader = new JsonTextReader(text) { ArrayPool = PooledJsonChars.Instance };
        try
        {
            return _serializer.Deserialize(reader, type)
                ?? throw new InvalidDataException($"The document '{key}' deserialized to null as {type}.");
        }
        catch (JsonException ex)
        {
            throw new InvalidDataException($"The document '{key}' cannot be read as {type}: {ex.Message}", ex);
        }
    }
}
