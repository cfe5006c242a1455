using System.Numerics;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

/// <summary>
/// The one writer every document goes through on its way to BSON (from JSON text and from a JObject alike). It
/// refuses, with an <see cref="ArgumentException"/> naming the place, whatever would not read back equal: a
/// property name holding U+0000 (BSON names are C strings), text that is not Unicode (a lone surrogate), NaN or an
/// infinity (JSON has no such numbers), nesting past <see cref="DocumentContent.MaxDepth"/>, and a number that
/// <see cref="BsonNumbers"/> cannot store exactly. Numbers that need BSON decimal128, which Newtonsoft.Json.Bson cannot
/// write, are written as stand-ins that <see cref="ToArray"/> turns into decimal128 (see <see cref="BsonDecimalMask"/>).
/// </summary>
internal sealed class CheckedBsonWriter : BsonDataWriter
{
    private readonly string _what;
    private int _depth;
    private BsonDecimalMask? _decimals;

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
        if (!Utf16Text.IsUnicode(name))
            throw Refuse($"a property name that is not Unicode text (it holds a lone surrogate): '{Printable(name)}'");
        base.WritePropertyName(name);
    }

    public override void WriteValue(string? value)
    {
        if (value is not null && !Utf16Text.IsUnicode(value))
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
            WriteDecimal128(BsonNumbers.Encode(value));
        else
            base.WriteValue((long)value);
    }

    public override void WriteValue(decimal value)
    {
        if (BsonNumbers.Classify(value, out var number, out var exact) == NumberForm.Decimal128)
            WriteDecimal128(exact);
        else
            base.WriteValue(number);
    }

    public override void WriteValue(object? value)
    {
        if (value is BigInteger big)
            WriteNumber(big);
        else
            base.WriteValue(value);
    }

    /// <summary>Writes a BSON decimal128 value (as a stand-in until <see cref="ToArray"/>).</summary>
    public void WriteDecimal128(Decimal128Bits value)
    {
        _decimals ??= new BsonDecimalMask();
        WriteRegex(_decimals.Add(value), "");
    }

    /// <summary>The BSON written to <paramref name="stream"/>, once this writer is closed, with its decimal128 values in place.</summary>
    public byte[] ToArray(MemoryStream stream)
    {
        var bson = stream.ToArray();
        _decimals?.Unmask(bson);
        return bson;
    }

    private void WriteNumber(BigInteger value)
    {
        if (value >= long.MinValue && value <= long.MaxValue)
        {
            base.WriteValue((long)value);
            return;
        }
        var text = System.Text.Encoding.ASCII.GetBytes(value.ToString(System.Globalization.CultureInfo.InvariantCulture));
        switch (BsonNumbers.Classify(text, out var number, out var exact))
        {
            case NumberForm.Double: base.WriteValue(number); break;
            case NumberForm.Decimal128: WriteDecimal128(exact); break;
            default: throw Refuse($"the integer {value}, which has more digits than RavenLite stores exactly (34, as BSON decimal128)");
        }
    }

    private void Enter()
    {
        if (++_depth > DocumentContent.MaxDepth)
            throw Refuse($"objects or arrays nested deeper than {DocumentContent.MaxDepth} levels");
    }

    private ArgumentException Refuse(string problem) =>
        new($"{_what} has {problem}, {(Path.Length == 0 ? "at the top level" : $"in '{Printable(Path)}'")}.");

    /// <summary>A name as it can be quoted in a message: control characters and surrogates as <c>\uXXXX</c>.</summary>
    internal static string Printable(string text) =>
        string.Concat(text.Select(c => char.IsControl(c) || char.IsSurrogate(c) ? $"\\u{(int)c:x4}" : c.ToString()));
}
