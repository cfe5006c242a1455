using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// Some fields of a document, named by paths written as in index definitions (<c>Customer</c>, <c>Customer.Name</c>,
/// <c>Lines[].ProductId</c>), copied out of its UTF-8 JSON without parsing the rest: a projection. The result is one
/// object with a member per path, named by the path's text, in the order given:
/// <list type="bullet">
/// <item>a path without <c>[]</c> gives the value it reaches, copied whole (a string, number, object or array), or
/// <c>null</c> when the document has nothing there;</item>
/// <item>a path with <c>[]</c> gives an array of every value it reaches, in document order (<c>[]</c> when none).</item>
/// </list>
/// Every member is always present, so each result has exactly the fields asked for.
/// </summary>
public sealed class FieldProjection
{
    private static readonly JsonReaderOptions s_readerOptions = new() { MaxDepth = DocumentContent.MaxDepth + 1 };

    private readonly JsonPath[] _paths;
    private readonly byte[][] _names;

    private FieldProjection(JsonPath[] paths)
    {
        _paths = paths;
        _names = new byte[paths.Length][];
        for (var i = 0; i < paths.Length; i++)
        {
            var encoded = JsonEncodedText.Encode(paths[i].Text, JavaScriptEncoder.UnsafeRelaxedJsonEscaping).EncodedUtf8Bytes;
            var name = new byte[encoded.Length + 3];
            name[0] = (byte)'"';
            encoded.CopyTo(name.AsSpan(1));
            name[^2] = (byte)'"';
            name[^1] = (byte)':';
            _names[i] = name;
        }
    }

    /// <summary>The paths, each once, in the order first given.</summary>
    public IReadOnlyList<string> Paths => [.. _paths.Select(path => path.Text)];

    /// <summary>The projection of <paramref name="paths"/>; a path given twice counts once.</summary>
    /// <exception cref="ArgumentException">No path, or one that is not a valid field path (the message names it).</exception>
    public static FieldProjection Parse(IReadOnlyList<string> paths)
    {
        ArgumentNullException.ThrowIfNull(paths);
        if (paths.Count == 0)
            throw new ArgumentException("A projection needs at least one field path.", nameof(paths));
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var parsed = new List<JsonPath>(paths.Count);
        foreach (var path in paths)
        {
            if (seen.Add(path ?? ""))
                parsed.Add(JsonPath.Parse(path));
        }
        return new FieldProjection([.. parsed]);
    }

    /// <summary>The projected object of a document's data as UTF-8 JSON.</summary>
    public byte[] Project(ReadOnlySpan<byte> dataJson)
    {
        var output = new ArrayBufferWriter<byte>(64 * _paths.Length);
        Write(dataJson, output);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>Writes the projected object of a document's data (UTF-8 JSON of one object) to <paramref name="output"/>.</summary>
    /// <exception cref="ArgumentException"><paramref name="dataJson"/> is not one JSON object.</exception>
    public void Write(ReadOnlySpan<byte> dataJson, IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        Append(output, "{"u8);
        for (var i = 0; i < _paths.Length; i++)
        {
            if (i > 0)
                Append(output, ","u8);
            Append(output, _names[i]);
            var path = _paths[i];
            var many = path.Segments.Any(segment => segment.ArrayDepth > 0);
            var values = new Values(output, many);
            if (many)
                Append(output, "["u8);
            var reader = new Utf8JsonReader(dataJson, s_readerOptions);
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
                throw new ArgumentException("A projection reads a document's data, which is one JSON object.", nameof(dataJson));
            Walk(ref reader, dataJson, path.Segments, 0, ref values);
            if (many)
                Append(output, "]"u8);
            else if (values.Count == 0)
                Append(output, "null"u8);
        }
        Append(output, "}"u8);
    }

    /// <summary>
    /// From a value's first token to its last: into the object when a segment is left, else copy the value. Once a path
    /// without <c>[]</c> has its value the walk stops where it is: the rest of the document is never read.
    /// </summary>
    private static void Walk(ref Utf8JsonReader reader, ReadOnlySpan<byte> data, IReadOnlyList<PathSegment> segments, int segment, ref Values values)
    {
        if (segment == segments.Count)
        {
            var start = (int)reader.TokenStartIndex;
            reader.Skip();
            values.Add(data[start..(int)reader.BytesConsumed]);
            return;
        }
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            reader.Skip();
            return;
        }
        var step = segments[segment];
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var match = !values.Done && reader.ValueTextEquals(step.Name);
            reader.Read();
            if (match)
                WalkItems(ref reader, data, segments, segment, step.ArrayDepth, ref values);
            else
                reader.Skip();
            if (values.Done)
                return;
        }
    }

    private static void WalkItems(ref Utf8JsonReader reader, ReadOnlySpan<byte> data, IReadOnlyList<PathSegment> segments, int segment,
        int arrayDepth, ref Values values)
    {
        if (arrayDepth == 0)
        {
            Walk(ref reader, data, segments, segment + 1, ref values);
            return;
        }
        if (reader.TokenType != JsonTokenType.StartArray)
        {
            reader.Skip();
            return;
        }
        while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
            WalkItems(ref reader, data, segments, segment, arrayDepth - 1, ref values);
    }

    private static void Append(IBufferWriter<byte> output, ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(output.GetSpan(bytes.Length));
        output.Advance(bytes.Length);
    }

    /// <summary>The values a path reached so far: one at most for a path without <c>[]</c>, comma-separated for one with.</summary>
    private struct Values(IBufferWriter<byte> output, bool many)
    {
        public int Count { get; private set; }

        public readonly bool Done => !many && Count > 0;

        public void Add(ReadOnlySpan<byte> value)
        {
            if (Count > 0)
                Append(output, ","u8);
            Append(output, value);
            Count++;
        }
    }
}
