using System.Buffers;
using System.Buffers.Binary;
using System.Buffers.Text;
using System.Globalization;
using System.Numerics;
using System.Text;
using System.Text.Unicode;
using Newtonsoft.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

// Each value as JsonTextWriter spells it and DocumentContent.FromJson then reads that text: every integer in the
// 64-bit range as BSON int64; every other number as the double its text parses to when that double writes back as
// the same number, else as decimal128 (BsonNumbers; JsonTextWriter always gives floats and decimals a decimal point
// or an exponent, so none of them reads as an integer); dates, Guids, time spans,
// URIs, chars and bytes (base64) as the strings of their text.
public sealed partial class DocumentContentWriter
{
    /// <inheritdoc />
    public override void WriteNull()
    {
        base.WriteNull();
        Element(BsonTypes.Null);
    }

    /// <inheritdoc />
    public override void WriteValue(string? value)
    {
        base.WriteValue(value);
        if (value is null)
            Element(BsonTypes.Null);
        else
            String(value);
    }

    /// <inheritdoc />
    public override void WriteValue(bool value)
    {
        base.WriteValue(value);
        if (Element(BsonTypes.Boolean))
            _output.Byte(value ? (byte)1 : (byte)0);
    }

    /// <inheritdoc />
    public override void WriteValue(int value)
    {
        base.WriteValue(value);
        Integer(value);
    }

    /// <inheritdoc />
    public override void WriteValue(long value)
    {
        base.WriteValue(value);
        Integer(value);
    }

    /// <inheritdoc />
    public override void WriteValue(uint value)
    {
        base.WriteValue(value);
        Integer(value);
    }

    /// <inheritdoc />
    public override void WriteValue(ulong value)
    {
        base.WriteValue(value);
        if (value > long.MaxValue)
            Decimal128(BsonNumbers.Encode(value));
        else
            Integer((long)value);
    }

    /// <inheritdoc />
    public override void WriteValue(short value)
    {
        base.WriteValue(value);
        Integer(value);
    }

    /// <inheritdoc />
    public override void WriteValue(ushort value)
    {
        base.WriteValue(value);
        Integer(value);
    }

    /// <inheritdoc />
    public override void WriteValue(byte value)
    {
        base.WriteValue(value);
        Integer(value);
    }

    /// <inheritdoc />
    public override void WriteValue(sbyte value)
    {
        base.WriteValue(value);
        Integer(value);
    }

    /// <inheritdoc />
    public override void WriteValue(double value)
    {
        base.WriteValue(value);
        Double(value);
    }

    /// <inheritdoc />
    public override void WriteValue(float value)
    {
        base.WriteValue(value);
        if (float.IsFinite(value))
            Double(double.Parse(value.ToString("R", CultureInfo.InvariantCulture), CultureInfo.InvariantCulture));
        else
            Decline();
    }

    /// <inheritdoc />
    public override void WriteValue(decimal value)
    {
        base.WriteValue(value);
        // Up to 15 significant digits a double always writes back as the same number (the common case, kept fast).
        Span<int> bits = stackalloc int[4];
        decimal.GetBits(value, bits);
        if (bits[2] == 0 && (((ulong)(uint)bits[1] << 32) | (uint)bits[0]) < 1_000_000_000_000_000UL)
            Double(double.Parse(JsonConvert.ToString(value), CultureInfo.InvariantCulture));
        else if (BsonNumbers.Classify(value, out var number, out var exact) == NumberForm.Decimal128)
            Decimal128(exact);
        else
            Double(number);
    }

    /// <inheritdoc />
    public override void WriteValue(char value)
    {
        base.WriteValue(value);
        String([value]);
    }

    /// <inheritdoc />
    public override void WriteValue(DateTime value)
    {
        base.WriteValue(value);
        if (IsIsoDate())
            String(JsonConvert.ToString(value, DateFormatHandling.IsoDateFormat, DateTimeZoneHandling).AsSpan()[1..^1]);
    }

    /// <inheritdoc />
    public override void WriteValue(DateTimeOffset value)
    {
        base.WriteValue(value);
        if (IsIsoDate())
            String(JsonConvert.ToString(value, DateFormatHandling.IsoDateFormat).AsSpan()[1..^1]);
    }

    /// <inheritdoc />
    public override void WriteValue(Guid value)
    {
        base.WriteValue(value);
        String(value.ToString("D", CultureInfo.InvariantCulture));
    }

    /// <inheritdoc />
    public override void WriteValue(TimeSpan value)
    {
        base.WriteValue(value);
        String(value.ToString(null, CultureInfo.InvariantCulture));
    }

    /// <inheritdoc />
    public override void WriteValue(Uri? value)
    {
        base.WriteValue(value);
        if (value is null)
            Element(BsonTypes.Null);
        else
            String(value.OriginalString);
    }

    /// <inheritdoc />
    public override void WriteValue(byte[]? value)
    {
        base.WriteValue(value);
        if (value is null)
        {
            Element(BsonTypes.Null);
            return;
        }
        if (!Element(BsonTypes.String))
            return;
        var lengthAt = _output.Position;
        _output.Int32(0);
        Base64.EncodeToUtf8(value, _output.Reserve(Base64.GetMaxEncodedToUtf8Length(value.Length)), out _, out var written);
        _output.Advance(written);
        _output.Byte(0);
        _output.PatchLength(lengthAt, exclusive: true);
    }

    /// <inheritdoc />
    public override void WriteValue(object? value)
    {
        if (value is BigInteger)
        {
            // JsonTextWriter writes it as an integer of any size; its state is that of an integer.
            base.WriteValue(0L);
            Decline();
            return;
        }
        base.WriteValue(value);
    }

    /// <inheritdoc />
    public override void WriteUndefined()
    {
        base.WriteUndefined();
        Decline();
    }

    /// <inheritdoc />
    public override void WriteRaw(string? json)
    {
        base.WriteRaw(json);
        Decline();
    }

    /// <inheritdoc />
    public override void WriteRawValue(string? json)
    {
        base.WriteRawValue(json);
        Decline();
    }

    /// <inheritdoc />
    public override void WriteComment(string? text)
    {
        base.WriteComment(text);
        Decline();
    }

    /// <inheritdoc />
    public override void WriteWhitespace(string ws)
    {
        base.WriteWhitespace(ws);
        Decline();
    }

    /// <inheritdoc />
    public override void WriteStartConstructor(string name)
    {
        base.WriteStartConstructor(name);
        Decline();
    }

    private bool IsIsoDate()
    {
        if (DateFormatHandling == DateFormatHandling.IsoDateFormat && string.IsNullOrEmpty(DateFormatString))
            return true;
        Decline();
        return false;
    }

    private void Integer(long value)
    {
        if (Element(BsonTypes.Int64))
            _output.Int64(value);
    }

    private void Double(double value)
    {
        if (!double.IsFinite(value))
            Decline();
        else if (Element(BsonTypes.Double))
            _output.Int64(BitConverter.DoubleToInt64Bits(value));
    }

    private void Decimal128(Decimal128Bits value)
    {
        if (Element(BsonTypes.Decimal128))
        {
            value.WriteTo(_output.Reserve(16));
            _output.Advance(16);
        }
    }

    private void String(ReadOnlySpan<char> value)
    {
        if (!Element(BsonTypes.String))
            return;
        var lengthAt = _output.Position;
        _output.Int32(0);
        // Checks and encodes in one pass: a lone surrogate (not Unicode text) is invalid data, and declined.
        if (Utf8.FromUtf16(value, _output.Reserve(Encoding.UTF8.GetMaxByteCount(value.Length)), out _, out var written,
                replaceInvalidSequences: false) != OperationStatus.Done)
        {
            Decline();
            return;
        }
        _output.Advance(written);
        _output.Byte(0);
        _output.PatchLength(lengthAt, exclusive: true);
    }
}
