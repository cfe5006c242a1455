using System.Numerics;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

/// <summary>
/// The one writer every document goes through on its way to BSON (from JSON text and from a JObject alike). It
/// refuses, with an <see cref="ArgumentException"/> naming the place, whatever would not read back equal: a
/// property name holding U+0000 (BSON names are C strings), text that is not Unicode (a lone surrogate), NaN or an
/// infinity (JSON has no such numbers), nesting past <see cref="DocumentContent.MaxDepth"/>. Integers too large
/// for 64 bits become the nearest double, as in JSON text, instead of BSON binary.
/// </summary>
internal sealed class CheckedBsonWriter : BsonDataWriter
{
    private readonly string _what;
    private int _depth;

    public CheckedBsonWriter(Stream stream, string what) : base(stream)
    {
        _what = what;
        DateTimeKindHandling = DateTimeKind.Utc;
    }

    public override void WriteStartObject()
    {
        Enter();
        base.WriteStartObject();
    }

    public override void WriteStartArray()
    {
        Enter();
        base.WriteStartArray();
    }

    protected override void WriteEnd(JsonToken token)
    {
        _depth--;
        base.WriteEnd(token);
    }

    public override void WritePropertyName(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (name.Contains('\0', StringComparison.Ordinal))
            throw Refuse($"a property name holding U+0000 (NUL), which BSON cannot store: '{Printable(name)}'");
        if (!IsUnicode(name))
            throw Refuse($"a property name that is not Unicode text (it holds a lone surrogate): '{Printable(name)}'");
        base.WritePropertyName(name);
    }

    public override void WriteValue(string? value)
    {
        if (value is not null && !IsUnicode(value))
            throw Refuse("a string that is not Unicode text (it holds a lone surrogate)");
        base.WriteValue(value);
    }

    public override void WriteValue(char value) => WriteValue(value.ToString());

    public override void WriteValue(double value)
    {
        if (!double.IsFinite(value))
            throw Refuse($"the number {value}, which JSON cannot hold");
        base.WriteValue(value);
    }

    public override void WriteValue(float value) => WriteValue((double)value);

    public override void WriteValue(ulong value)
    {
        if (value > long.MaxValue)
            WriteValue((double)value);
        else
            base.WriteValue((long)value);
    }

    public override void WriteValue(object? value)
    {
        if (value is BigInteger big)
            WriteValue((double)big);
        else
            base.WriteValue(value);
    }

    private void Enter()
    {
        if (++_depth > DocumentContent.MaxDepth)
            throw Refuse($"objects or arrays nested deeper than {DocumentContent.MaxDepth} levels");
    }

    private ArgumentException Refuse(string problem) =>
        new($"{_what} has {problem}, {(Path.Length == 0 ? "at the top level" : $"in '{Printable(Path)}'")}.");

    /// <summary>Whether <paramref name="text"/> is valid UTF-16 (every surrogate in a pair), i.e. encodable as UTF-8.</summary>
    internal static bool IsUnicode(ReadOnlySpan<char> text)
    {
        var at = text.IndexOfAnyInRange('\uD800', '\uDFFF');
        if (at < 0)
            return true;
        for (var i = at; i < text.Length; i++)
        {
            if (!char.IsSurrogate(text[i]))
                continue;
            if (!char.IsHighSurrogate(text[i]) || i + 1 == text.Length || !char.IsLowSurrogate(text[i + 1]))
                return false;
            i++;
        }
        return true;
    }

    /// <summary>A name as it can be quoted in a message: control characters and surrogates as <c>\uXXXX</c>.</summary>
    internal static string Printable(string text) =>
        string.Concat(text.Select(c => char.IsControl(c) || char.IsSurrogate(c) ? $"\\u{(int)c:x4}" : c.ToString()));
}
