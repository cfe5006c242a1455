using System.Text;
using Newtonsoft.Json;

namespace RavenLite.Client.Serialization;

/// <summary>
/// Entities to and from UTF-8 JSON with Newtonsoft.Json, under the store's settings. Reads go straight from the
/// bytes a backend hands over (the document cache's JSON when embedded), with no intermediate tree.
/// </summary>
internal sealed class EntitySerializer(JsonSerializerSettings settings)
{
    // Strict: a string holding half of a character (an unpaired surrogate) is refused, not stored as U+FFFD.
    private static readonly UTF8Encoding s_utf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);
    private readonly JsonSerializer _serializer = JsonSerializer.Create(settings);

    [ThreadStatic]
    private static Utf8Output? t_output;

    /// <summary>The entity as UTF-8 JSON; an <see cref="ArgumentException"/> when it cannot be, or is not an object.</summary>
    public byte[] Serialize(object entity, string key)
    {
        // The thread's stream and text writer, taken while in use (a converter serializing another entity gets its own).
        var output = t_output ?? new Utf8Output();
        t_output = null;
        byte[] bytes;
        var reusable = true;
        try
        {
            using (var json = new JsonTextWriter(output.Text) { Formatting = Formatting.None, ArrayPool = PooledJsonChars.Instance, CloseOutput = false })
                _serializer.Serialize(json, entity);
            bytes = output.Bytes();
        }
        catch (EncoderFallbackException ex)
        {
            reusable = false;
            throw new ArgumentException($"The entity '{key}' ({entity.GetType()}) holds a string with {HalfCharacter(ex)}, which a document " +
                "cannot store: JSON text and BSON hold whole characters only.", nameof(entity), ex);
        }
        catch (Exception ex) when (ex is JsonException or NotSupportedException or InvalidOperationException)
        {
            throw new ArgumentException($"The entity '{key}' ({entity.GetType()}) cannot be serialized to JSON: {ex.Message}", nameof(entity), ex);
        }
        finally
        {
            // After a refused character the text writer still holds it and would throw again on flushing: dropped unflushed.
            if (!reusable)
                output.Abandon();
            else if (output.Reset())
                t_output = output;
            else
                output.Dispose();
        }
        if (bytes.Length == 0 || bytes[0] != (byte)'{')
            throw new ArgumentException($"The entity '{key}' ({entity.GetType()}) must serialize to a JSON object; a document is one.", nameof(entity));
        return bytes;
    }

    /// <summary>
    /// The entity in a backend's own form, written by <paramref name="encoder"/>'s writer; null when it must be
    /// serialized as JSON instead (<see cref="Serialize"/>, which also gives the error of an entity that fails here).
    /// </summary>
    public object? TrySerialize(object entity, RavenLite.Client.Backend.DocumentEncoder encoder)
    {
        try
        {
            _serializer.Serialize(encoder.Writer, entity);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            encoder.TakeDocument();
            return null;
        }
        return encoder.TakeDocument();
    }

    /// <summary>
    /// JSON text as UTF-8, refusing with an <see cref="ArgumentException"/> (naming <paramref name="what"/>) text holding
    /// half of a character, which the replacing <see cref="Encoding.UTF8"/> would turn into U+FFFD without a word.
    /// </summary>
    public static byte[] ToUtf8(string json, string what, string parameterName)
    {
        try
        {
            return s_utf8.GetBytes(json);
        }
        catch (EncoderFallbackException ex)
        {
            throw new ArgumentException($"{what} holds a string with {HalfCharacter(ex)}, which a document cannot store.", parameterName, ex);
        }
    }

    /// <summary>What the strict encoding refused, for the messages: "half of a character (an unpaired UTF-16 surrogate, U+D800)".</summary>
    private static string HalfCharacter(EncoderFallbackException refused) =>
        $"half of a character (an unpaired UTF-16 surrogate, U+{(int)(refused.CharUnknown != '\0' ? refused.CharUnknown : refused.CharUnknownHigh):X4})";

    /// <summary>
    /// Whether the serializer writes <paramref name="member"/> of <paramref name="type"/> into documents at all: not
    /// when it is <c>[JsonIgnore]</c>d or not a member its contract reads (a private one, say).
    /// </summary>
    public bool Writes(Type type, System.Reflection.MemberInfo member) =>
        _serializer.ContractResolver.ResolveContract(type) is not Newtonsoft.Json.Serialization.JsonObjectContract
        || PropertyOf(type, member) is { Ignored: false, Readable: true };

    /// <summary>Whether the serializer writes <paramref name="type"/> as a JSON object of its members, with no converter of its own.</summary>
    public bool WritesAsObject(Type type) =>
        _serializer.ContractResolver.ResolveContract(Nullable.GetUnderlyingType(type) ?? type) is Newtonsoft.Json.Serialization.JsonObjectContract { Converter: null }
        && SettingsConverter(type) is null;

    /// <summary>
    /// Whether the serializer writes <paramref name="type"/> as one JSON value (a number, a string, a date, a
    /// converter's form) rather than as an object of its members: a member of such a value (<c>DateOnly.Year</c>,
    /// <c>Uri.Host</c>) is computed by .NET and is in no document.
    /// </summary>
    public bool WritesAsValue(Type type)
    {
        type = Nullable.GetUnderlyingType(type) ?? type;
        var contract = _serializer.ContractResolver.ResolveContract(type);
        return contract is Newtonsoft.Json.Serialization.JsonPrimitiveContract or Newtonsoft.Json.Serialization.JsonStringContract
            || contract.Converter is not null
            || SettingsConverter(type) is not null;
    }

    /// <summary>The JSON name the store's settings give <paramref name="member"/> of <paramref name="type"/>.</summary>
    public string JsonName(Type type, System.Reflection.MemberInfo member) =>
        PropertyOf(type, member) is { PropertyName: { } name } ? name : member.Name;

    /// <summary>The store's contract for <paramref name="member"/> of <paramref name="type"/>; null when the type is not an object contract or lacks it.</summary>
    private Newtonsoft.Json.Serialization.JsonProperty? PropertyOf(Type type, System.Reflection.MemberInfo member) =>
        _serializer.ContractResolver.ResolveContract(type) is Newtonsoft.Json.Serialization.JsonObjectContract contract
            ? contract.Properties.FirstOrDefault(p => p.UnderlyingName == member.Name)
            : null;

    /// <summary>
    /// The converter that writes <paramref name="member"/>'s value (with <paramref name="items"/>, each item of the
    /// collection it holds), as Newtonsoft picks it: the member's own (<c>[JsonConverter]</c>, <c>ItemConverterType</c>),
    /// the value type's <c>[JsonConverter]</c>, or one of the settings' converters; null when none applies.
    /// </summary>
    public JsonConverter? ConverterOf(Type owner, System.Reflection.MemberInfo member, Type valueType, bool items)
    {
        var property = PropertyOf(owner, member);
        if ((items ? property?.ItemConverter : property?.Converter) is { } own)
            return own;
        var type = Nullable.GetUnderlyingType(valueType) ?? valueType;
        return _serializer.ContractResolver.ResolveContract(type).Converter
            ?? SettingsConverter(type);
    }

    /// <summary>The first of the settings' converters that writes <paramref name="type"/>, as Newtonsoft picks it.</summary>
    private JsonConverter? SettingsConverter(Type type) =>
        _serializer.Converters.FirstOrDefault(converter => converter.CanWrite && converter.CanConvert(type));

    /// <summary>
    /// The value the serializer leaves out of documents for <paramref name="member"/> (<c>DefaultValueHandling.Ignore</c>
    /// on it or in the settings: its <c>[DefaultValue]</c>, else its type's default), so a document without the member
    /// holds that value; null when nothing but null is left out.
    /// </summary>
    public object? OmittedDefault(Type owner, System.Reflection.MemberInfo member, Type valueType)
    {
        var property = PropertyOf(owner, member);
        if (((property?.DefaultValueHandling ?? _serializer.DefaultValueHandling) & DefaultValueHandling.Ignore) == 0)
            return null;
        return property?.DefaultValue ?? (valueType.IsValueType && Nullable.GetUnderlyingType(valueType) is null ? Activator.CreateInstance(valueType) : null);
    }

    /// <summary>Whether the settings write dates as ISO 8601 text in its default form, which the index reads as instants.</summary>
    public bool WritesIsoDates =>
        _serializer.DateFormatHandling == DateFormatHandling.IsoDateFormat && _serializer.DateFormatString == s_defaultDateFormat;

    private static readonly string s_defaultDateFormat = new JsonSerializer().DateFormatString;

    /// <summary>
    /// A value as it is written into a document (by <paramref name="converter"/> when given) under the store's
    /// settings, read back from that JSON text with dates left as the text they are.
    /// </summary>
    public Newtonsoft.Json.Linq.JToken ToWrittenToken(object value, JsonConverter? converter)
    {
        using var text = new StringWriter(System.Globalization.CultureInfo.InvariantCulture);
        using (var writer = new JsonTextWriter(text))
        {
            if (converter is null)
                _serializer.Serialize(writer, value);
            else
            {
                writer.DateFormatHandling = _serializer.DateFormatHandling;
                writer.DateFormatString = _serializer.DateFormatString;
                writer.DateTimeZoneHandling = _serializer.DateTimeZoneHandling;
                writer.FloatFormatHandling = _serializer.FloatFormatHandling;
                writer.Culture = _serializer.Culture;
                converter.WriteJson(writer, value, _serializer);
            }
        }
        using var reader = new JsonTextReader(new StringReader(text.ToString())) { DateParseHandling = DateParseHandling.None };
        return Newtonsoft.Json.Linq.JToken.ReadFrom(reader);
    }

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

    /// <summary>
    /// A stream and the UTF-8 text writer over it, kept per thread between entities: a new pair per entity cost more
    /// than the entity's own JSON (the writer's char and byte buffers, the stream's growth).
    /// </summary>
    private sealed class Utf8Output : IDisposable
    {
        /// <summary>A stream grown past this by a large entity is dropped rather than kept for the thread.</summary>
        private const int MaxKeptCapacity = 1 << 20;

        private readonly MemoryStream _stream = new(1024);

        public Utf8Output() => Text = new StreamWriter(_stream, s_utf8, bufferSize: 1024, leaveOpen: true);

        public StreamWriter Text { get; }

        /// <summary>What was written, as a new array.</summary>
        public byte[] Bytes()
        {
            Text.Flush();
            return _stream.ToArray();
        }

        /// <summary>Empties the pair (also after a failure left part of an entity in it); false when it is not worth keeping.</summary>
        public bool Reset()
        {
            Text.Flush();
            _stream.SetLength(0);
            return _stream.Capacity <= MaxKeptCapacity;
        }

        public void Dispose()
        {
            Text.Dispose();
            _stream.Dispose();
        }

        /// <summary>Lets the pair go without flushing the text writer (it holds what could not be encoded); it has no other resources.</summary>
        public void Abandon() => _stream.Dispose();
    }
}
