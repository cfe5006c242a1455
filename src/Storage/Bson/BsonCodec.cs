using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using System.Text.Json;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using Newtonsoft.Json.Linq;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

/// <summary>
/// Converts between JSON and the BSON that documents are stored as: writes go through <see cref="CheckedBsonWriter"/>
/// (JSON text first through <see cref="StrictJson"/>), BSON given as is is checked by <see cref="BsonStructure"/>,
/// Newtonsoft's <see cref="BsonDataReader"/> and one trial read; reads (BSON to JSON) go through
/// <see cref="BsonJsonTranscoder"/>, which walks the bytes itself.
/// </summary>
internal static unsafe class BsonCodec
{
    /// <summary>BSON's own limit on a document, which RavenLite applies to metadata plus data.</summary>
    public const int MaxDocumentBytes = 16 * 1024 * 1024;

    // Documents are served as application/json, never inlined into HTML: escape only what JSON requires,
    // so non-ASCII text stays readable and compact.
    private static readonly JsonWriterOptions WriterOptions = new()
    {
        SkipValidation = true,
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    /// <summary>Encodes UTF-8 JSON text, which must be one JSON object, as BSON (see <see cref="StrictJson"/>).</summary>
    public static byte[] FromJson(ReadOnlySpan<byte> utf8Json, string what) => StrictJson.ToBson(utf8Json, what);

    /// <summary>Encodes JSON text, which must be one JSON object, as BSON (see <see cref="StrictJson"/>).</summary>
    public static byte[] FromJson(string json, string what) => StrictJson.ToBson(StrictJson.ToUtf8(json, what), what);

    /// <summary>Encodes a JSON object as BSON.</summary>
    public static byte[] FromJObject(JObject value, string what)
    {
        ArgumentNullException.ThrowIfNull(value, what);
        try
        {
            return Write(w => value.WriteTo(w), what);
        }
        catch (JsonWriterException ex)
        {
            throw new ArgumentException($"{what} cannot be stored as BSON: {ex.Message}", ex);
        }
    }

    /// <summary>Checks that <paramref name="bson"/> is exactly one well-formed BSON document.</summary>
    public static void Validate(ReadOnlySpan<byte> bson, string what)
    {
        if (bson.Length < 5 || BinaryPrimitives.ReadInt32LittleEndian(bson) != bson.Length || bson[^1] != 0)
            throw new ArgumentException($"{what} is not a BSON document (its length header does not match its {bson.Length} bytes).");
        if (BsonStructure.FindError(bson) is { } error)
            throw new ArgumentException($"{what} is not well-formed BSON: {error}.");
        try
        {
            // BsonDataReader cannot read decimal128; it checks the rest with stand-ins in their places.
            var read = BsonDecimalMask.Mask(bson)?.Bson is { } masked ? masked : bson;
            fixed (byte* p = read)
            {
                using var stream = new UnmanagedMemoryStream(p, read.Length);
                // BsonStructure has already held the depth to 128; Newtonsoft's default of 64 would refuse more.
                using var reader = new BsonDataReader(stream) { MaxDepth = null };
                while (reader.Read()) { }
            }
        }
        catch (Exception ex) when (ex is Newtonsoft.Json.JsonException or EndOfStreamException or ArgumentException)
        {
            throw new ArgumentException($"{what} is not well-formed BSON: {ex.Message}", ex);
        }
        CheckReadsBack(bson, what);
    }

    /// <summary>
    /// Reads <paramref name="bson"/> as every read will, and refuses it unless that gives one complete JSON object:
    /// BsonDataReader, which reads odd input, can stop early on BSON that is odd but well-formed.
    /// </summary>
    private static void CheckReadsBack(ReadOnlySpan<byte> bson, string what)
    {
        var json = new ArrayBufferWriter<byte>(bson.Length * 2);
        try
        {
            ToJson(bson, json);
            var reader = new Utf8JsonReader(json.WrittenSpan, new JsonReaderOptions { MaxDepth = Document.MaxReadDepth });
            while (reader.Read())
            {
            }
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            throw new ArgumentException($"{what} is BSON that does not read back as one JSON object: {ex.Message}", ex);
        }
    }

    /// <summary>The length a BSON document at the start of <paramref name="span"/> declares.</summary>
    public static int DeclaredLength(ReadOnlySpan<byte> span) => BinaryPrimitives.ReadInt32LittleEndian(span);

    /// <summary>
    /// Reads the string member <paramref name="name"/> of a checked BSON object's top level, if any (null when it is
    /// missing or not a string), by walking the element headers: no reader, and the value is the one string allocated.
    /// </summary>
    public static string? ReadTopLevelString(ReadOnlySpan<byte> bson, string name) => BsonStructure.TopLevelString(bson, name);

    /// <summary>A JSON writer set up as documents are written out (relaxed escaping, no validation).</summary>
    public static Utf8JsonWriter CreateJsonWriter(IBufferWriter<byte> output) => new(output, WriterOptions);

    /// <summary>
    /// Writes BSON as UTF-8 JSON, without building a tree, byte for byte as Newtonsoft's <see cref="BsonDataReader"/>
    /// reads it (see <see cref="BsonJsonTranscoder"/>).
    /// </summary>
    /// <returns>How many JSON tokens were written (what a parser will need a row for each of).</returns>
    public static int ToJson(ReadOnlySpan<byte> bson, IBufferWriter<byte> output)
    {
        using var writer = CreateJsonWriter(output);
        return ToJson(bson, writer);
    }

    /// <summary>
    /// As <see cref="ToJson(ReadOnlySpan{byte}, IBufferWriter{byte})"/>, through a writer from
    /// <see cref="CreateJsonWriter"/> that is reset first and flushed after, so one can serve many documents.
    /// </summary>
    public static int ToJson(ReadOnlySpan<byte> bson, Utf8JsonWriter writer)
    {
        // Writing nothing would look like a document that was read; no bytes at all is a caller's mistake.
        if (bson.IsEmpty)
            throw new ArgumentNullException(nameof(bson), "There is no BSON to read.");
        writer.Reset();
        var tokens = BsonJsonTranscoder.Write(bson, writer);
        writer.Flush();
        return tokens;
    }

    private static byte[] Write(Action<BsonDataWriter> write, string what)
    {
        using var stream = new MemoryStream();
        using var writer = new CheckedBsonWriter(stream, what);
        write(writer);
        writer.Close();
        return writer.ToArray(stream);
    }
}
