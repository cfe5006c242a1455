using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using System.Text.Json;
using System.Text.Unicode;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

/// <summary>
/// The fast way from JSON to BSON: the object a <see cref="Utf8JsonReader"/> is on, written as BSON straight into one
/// pooled buffer (no token tree, no strings for names or ASCII values), bytes equal to what
/// <see cref="CheckedBsonWriter"/> writes for it. It accepts only input that writer would accept unchanged: at the
/// first doubt (a syntax error, a name given twice, a NUL in a name, text that is not Unicode, a number
/// <see cref="BsonNumbers"/> refuses, nesting past <see cref="DocumentContent.MaxDepth"/>) it gives up, and <see cref="StrictJson"/> reads
/// the input again through <see cref="CheckedBsonWriter"/>, which refuses it with its own message.
/// </summary>
internal static class JsonBsonEncoder
{
    /// <summary>Names per object compared one by one; an object with more gets a hash set.</summary>
    private const int LinearNameChecks = 16;

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>
    /// The BSON of the object <paramref name="reader"/> is on, leaving the reader on its <c>}</c>; null when the input
    /// needs <see cref="CheckedBsonWriter"/>'s judgement (the reader is then somewhere inside the object).
    /// </summary>
    public static byte[]? TryEncode(ref Utf8JsonReader reader, Func<string, bool>? leaveOut)
    {
        // The thread's lists, taken while in use; new lists per document were most of what an import left to collect.
        var state = t_state ?? new State();
        t_state = null;
        var output = new BsonOutput();
        try
        {
            return Encode(ref reader, ref output, state, leaveOut) ? output.Written.ToArray() : null;
        }
        catch (Exception ex) when (ex is JsonException or InvalidOperationException or ArgumentException or FormatException)
        {
            return null;
        }
        finally
        {
            output.Dispose();
            state.Frames.Clear();
            state.Names.Clear();
            t_state = state;
        }
    }

    [ThreadStatic]
    private static State? t_state;

    private static bool Encode(ref Utf8JsonReader reader, ref BsonOutput output, State state, Func<string, bool>? leaveOut)
    {
        var frames = state.Frames;
        var names = state.Names;
        var typeAt = -1;
        do
        {
            var token = reader.TokenType;
            if (token == JsonTokenType.PropertyName)
            {
                if (frames.Count == 1 && leaveOut is not null && leaveOut(reader.GetString()!))
                {
                    reader.Read();
                    reader.Skip();
                    continue;
                }
                typeAt = output.Position;
                output.Byte(0);
                var nameAt = output.Position;
                if (!WriteText(ref reader, ref output) || output.Written[nameAt..].Contains((byte)0))
                    return false;
                var frame = frames[^1];
                if (!IsNewName(ref frame, names, output.Written, nameAt))
                    return false;
                frames[^1] = frame;
                output.Byte(0);
                continue;
            }
            if (token is JsonTokenType.EndObject or JsonTokenType.EndArray)
            {
                var frame = frames[^1];
                frames.RemoveAt(frames.Count - 1);
                names.RemoveRange(frame.NamesStart, names.Count - frame.NamesStart);
                output.Byte(0);
                output.PatchLength(frame.LengthAt);
                continue;
            }
            if (frames.Count > 0)
            {
                var type = TypeOf(ref reader, out var integer, out var number, out var exact);
                if (type == 0)
                    return false;
                if (frames[^1].IsArray)
                {
                    var frame = frames[^1];
                    output.Byte(type);
                    output.Index(frame.NextIndex++);
                    frames[^1] = frame;
                }
                else
                {
                    output.SetByte(typeAt, type);
                }
                switch (token)
                {
                    case JsonTokenType.String:
                        var lengthAt = output.Position;
                        output.Int32(0);
                        if (!WriteText(ref reader, ref output))
                            return false;
                        output.Byte(0);
                        output.PatchLength(lengthAt, exclusive: true);
                        continue;
                    case JsonTokenType.Number when type == BsonTypes.Int64:
                        output.Int64(integer);
                        continue;
                    case JsonTokenType.Number when type == BsonTypes.Decimal128:
                        exact.WriteTo(output.Reserve(16));
                        output.Advance(16);
                        continue;
                    case JsonTokenType.Number:
                        output.Int64(BitConverter.DoubleToInt64Bits(number));
                        continue;
                    case JsonTokenType.True or JsonTokenType.False:
                        output.Byte(reader.TokenType == JsonTokenType.True ? (byte)1 : (byte)0);
                        continue;
                    case JsonTokenType.Null:
                        continue;
                }
            }
            if (frames.Count == DocumentContent.MaxDepth)
                return false;
            frames.Add(new BsonFrame(output.Position, token == JsonTokenType.StartArray, names.Count));
            output.Int32(0);
        }
        while (frames.Count > 0 && reader.Read());
        return frames.Count == 0;
    }

    /// <summary>The BSON type of the value the reader is on (0: one this encoder leaves to the checked writer).</summary>
    private static byte TypeOf(ref Utf8JsonReader reader, out long integer, out double number, out Decimal128Bits exact)
    {
        integer = 0;
        number = 0;
        exact = default;
        switch (reader.TokenType)
        {
            case JsonTokenType.StartObject: return BsonTypes.Object;
            case JsonTokenType.StartArray: return BsonTypes.Array;
            case JsonTokenType.String: return BsonTypes.String;
            case JsonTokenType.True or JsonTokenType.False: return BsonTypes.Boolean;
            case JsonTokenType.Null: return BsonTypes.Null;
            case JsonTokenType.Number when reader.TryGetInt64(out integer): return BsonTypes.Int64;
            case JsonTokenType.Number when reader.TryGetDouble(out number) && double.IsFinite(number):
                return BsonNumbers.Classify(reader.ValueSpan, number, out exact) switch
                {
                    NumberForm.Double => BsonTypes.Double,
                    NumberForm.Decimal128 => BsonTypes.Decimal128,
                    _ => 0,
                };
            default: return 0;
        }
    }

    /// <summary>The string or name the reader is on as UTF-8, unescaped; false when it is not Unicode text.</summary>
    private static bool WriteText(ref Utf8JsonReader reader, ref BsonOutput output)
    {
        if (reader.ValueIsEscaped)
        {
            var text = reader.GetString()!;
            var span = output.Reserve(StrictUtf8.GetMaxByteCount(text.Length));
            output.Advance(StrictUtf8.GetBytes(text, span));
            return true;
        }
        var value = reader.ValueSpan;
        if (!Utf8.IsValid(value))
            return false;
        value.CopyTo(output.Reserve(value.Length));
        output.Advance(value.Length);
        return true;
    }

    /// <summary>Records the name just written at <paramref name="nameAt"/>; false when the current object has it already.</summary>
    private static bool IsNewName(ref BsonFrame frame, List<(int Offset, int Length)> names, ReadOnlySpan<byte> written, int nameAt)
    {
        var name = written[nameAt..];
        if (frame.Names is { } set)
            return set.Add(Encoding.UTF8.GetString(name));
        for (var i = frame.NamesStart; i < names.Count; i++)
        {
            if (written.Slice(names[i].Offset, names[i].Length).SequenceEqual(name))
                return false;
        }
        if (names.Count - frame.NamesStart < LinearNameChecks)
        {
            names.Add((nameAt, name.Length));
            return true;
        }
        frame.Names = new HashSet<string>(StringComparer.Ordinal) { Encoding.UTF8.GetString(name) };
        for (var i = frame.NamesStart; i < names.Count; i++)
            frame.Names.Add(Encoding.UTF8.GetString(written.Slice(names[i].Offset, names[i].Length)));
        return true;
    }

    /// <summary>The open objects and arrays, and the names of the open objects, of the document being encoded.</summary>
    private sealed class State
    {
        public List<BsonFrame> Frames { get; } = new(8);

        public List<(int Offset, int Length)> Names { get; } = new(32);
    }
}
