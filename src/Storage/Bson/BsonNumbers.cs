using System.Buffers.Binary;
using System.Globalization;
using System.Text.Json;

namespace RavenLite.Storage.Bson;

/// <summary>How a JSON number is stored so that it reads back as the same number (see <see cref="BsonNumbers"/>).</summary>
internal enum NumberForm : byte
{
    /// <summary>A double whose shortest text is the number: stored as BSON double (0x01).</summary>
    Double,

    /// <summary>Neither an int64 nor such a double, but held exactly by BSON decimal128 (0x13).</summary>
    Decimal128,

    /// <summary>Beyond a double's range (about ±1.8E+308): refused.</summary>
    OutOfRange,

    /// <summary>Inside a double's range, but neither a double nor decimal128 as RavenLite stores it holds it exactly: refused.</summary>
    NotExact,
}

/// <summary>A BSON decimal128 value (IEEE 754-2008, binary integer decimal), as its two little-endian halves.</summary>
internal readonly record struct Decimal128Bits(ulong Low, ulong High)
{
    public void WriteTo(Span<byte> destination)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(destination, Low);
        BinaryPrimitives.WriteUInt64LittleEndian(destination[8..], High);
    }

    public static Decimal128Bits Read(ReadOnlySpan<byte> value) =>
        new(BinaryPrimitives.ReadUInt64LittleEndian(value), BinaryPrimitives.ReadUInt64LittleEndian(value[8..]));
}

/// <summary>
/// The one rule for storing JSON numbers exactly, shared by every writer: an integer in the 64-bit range is BSON
/// int64; any other number whose nearest double writes back (shortest round-trip text) as the same number is a
/// BSON double, as always; what is left is BSON decimal128 when it is an integer below 10^34 or a value a .NET
/// <see cref="decimal"/> holds (at most 28 decimal places, 96-bit coefficient), which covers every <see cref="ulong"/>
/// and <see cref="decimal"/>. Anything else is refused: no form here reads it back, as text, JsonElement, JObject
/// or typed value, equal. decimal128 reads back as plain JSON digits (see <see cref="WriteJson"/>).
/// </summary>
internal static class BsonNumbers
{
    private const int MaxDigits = 34;
    private const int ExponentBias = 6176;
    private const int PlainZeros = 40;
    private static readonly UInt128 MaxCoefficient = UInt128.Parse("9999999999999999999999999999999999", CultureInfo.InvariantCulture);
    private static readonly UInt128 DecimalCoefficientLimit = UInt128.One << 96;

    /// <summary>
    /// The form of a JSON number that is not an int64 (its text <paramref name="text"/>, and its nearest double
    /// <paramref name="number"/> from the caller's parser, which may be infinite). <paramref name="decimal128"/> is set
    /// for <see cref="NumberForm.Decimal128"/>.
    /// </summary>
    public static NumberForm Classify(ReadOnlySpan<byte> text, double number, out Decimal128Bits decimal128)
    {
        decimal128 = default;
        if (double.IsFinite(number) && IsShortDouble(text))
            return NumberForm.Double;
        if (!TryParse(text, out var negative, out var coefficient, out var exponent))
            return double.IsFinite(number) ? NumberForm.NotExact : NumberForm.OutOfRange;
        if (double.IsFinite(number) && DoubleIsExact(number, negative, coefficient, exponent))
            return NumberForm.Double;
        if (!double.IsFinite(number))
            return NumberForm.OutOfRange;
        var storable = exponent >= 0
            ? coefficient == UInt128.Zero || Digits(coefficient) + exponent <= MaxDigits
            : exponent >= -28 && coefficient < DecimalCoefficientLimit;
        if (!storable)
            return NumberForm.NotExact;
        decimal128 = Encode(negative, coefficient, exponent);
        return NumberForm.Decimal128;
    }

    /// <summary>As <see cref="Classify(ReadOnlySpan{byte}, double, out Decimal128Bits)"/>, for a number's text alone.</summary>
    public static NumberForm Classify(ReadOnlySpan<byte> text, out double number, out Decimal128Bits decimal128)
    {
        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out number))
            number = double.NaN;
        return Classify(text, number, out decimal128);
    }

    /// <summary>
    /// The form of a <see cref="decimal"/> (never refused): a double exactly as JSON text of it would be stored.
    /// </summary>
    public static NumberForm Classify(decimal value, out double number, out Decimal128Bits decimal128)
    {
        Span<byte> text = stackalloc byte[48];
        value.TryFormat(text, out var written, default, CultureInfo.InvariantCulture);
        return Classify(text[..written], out number, out decimal128);
    }

    /// <summary>An unsigned integer above <see cref="long.MaxValue"/> as decimal128.</summary>
    public static Decimal128Bits Encode(ulong value) => Encode(false, Strip(value, out var zeros), zeros);

    private static UInt128 Strip(UInt128 value, out int zeros)
    {
        zeros = 0;
        while (value != UInt128.Zero && value % 10 == UInt128.Zero)
        {
            value /= 10;
            zeros++;
        }
        return value;
    }

    /// <summary>
    /// True when the text is at most 15 bytes without an exponent: at most 15 significant digits, between 1E-14 and
    /// 1E+15 in size, so the nearest double always writes back as the same number (IEEE 754 guarantees 15 digits).
    /// </summary>
    private static bool IsShortDouble(ReadOnlySpan<byte> text) => text.Length <= 15 && text.IndexOfAny((byte)'e', (byte)'E') < 0;

    private static bool DoubleIsExact(double number, bool negative, UInt128 coefficient, int exponent)
    {
        Span<byte> shortest = stackalloc byte[32];
        number.TryFormat(shortest, out var written, "R", CultureInfo.InvariantCulture);
        return TryParse(shortest[..written], out var n, out var c, out var e)
            && c == coefficient && e == exponent && (n == negative || c == UInt128.Zero);
    }

    /// <summary>
    /// Reads JSON number text (or .NET's round-trip text of a double or decimal) as sign, coefficient and exponent with
    /// the coefficient's trailing zeros moved into the exponent (zero has exponent 0); false beyond 34 significant digits.
    /// </summary>
    internal static bool TryParse(ReadOnlySpan<byte> text, out bool negative, out UInt128 coefficient, out int exponent)
    {
        coefficient = UInt128.Zero;
        exponent = 0;
        var i = 0;
        negative = text.Length > 0 && text[0] == (byte)'-';
        if (negative)
            i++;
        int digits = 0, pending = 0;
        var fraction = false;
        for (; i < text.Length; i++)
        {
            var ch = text[i];
            if (ch == (byte)'.')
            {
                fraction = true;
                continue;
            }
            if (ch is < (byte)'0' or > (byte)'9')
                break;
            if (fraction)
                exponent--;
            if (ch == (byte)'0')
            {
                if (digits > 0)
                    pending++;
                continue;
            }
            if (digits + pending + 1 > MaxDigits)
                return false;
            for (var z = 0; z < pending; z++)
                coefficient *= 10;
            coefficient = (coefficient * 10) + (uint)(ch - '0');
            digits += pending + 1;
            pending = 0;
        }
        exponent += pending;
        if (i < text.Length && text[i] is (byte)'e' or (byte)'E')
        {
            if (!int.TryParse(text[(i + 1)..], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var power)
                || Math.Abs(power) > 100_000)
            {
                exponent = 0;
                return coefficient == UInt128.Zero;
            }
            exponent += power;
        }
        if (coefficient == UInt128.Zero)
            exponent = 0;
        return true;
    }

    private static int Digits(UInt128 value)
    {
        var digits = 1;
        while (value >= 10)
        {
            value /= 10;
            digits++;
        }
        return digits;
    }

    private static Decimal128Bits Encode(bool negative, UInt128 coefficient, int exponent)
    {
        var high = (ulong)(coefficient >> 64) | ((ulong)(exponent + ExponentBias) << 49) | (negative ? 1UL << 63 : 0);
        return new Decimal128Bits((ulong)coefficient, high);
    }

    /// <summary>
    /// Writes a decimal128 value as a JSON number: plain digits (no exponent) unless that would take more than 40
    /// zeros, so a <see cref="decimal"/> or <see cref="ulong"/> reads back through any JSON reader; NaN and the
    /// infinities (which writes never store) as strings, as a double's are.
    /// </summary>
    public static void WriteJson(ReadOnlySpan<byte> value, Utf8JsonWriter writer)
    {
        Span<byte> text = stackalloc byte[128];
        var length = Format(Decimal128Bits.Read(value), text);
        if (length < 0)
            writer.WriteStringValue(length == -1 ? "NaN"u8 : length == -2 ? "Infinity"u8 : "-Infinity"u8);
        else
            writer.WriteRawValue(text[..length], skipInputValidation: true);
    }

    /// <summary>The JSON text of <paramref name="value"/> in <paramref name="text"/> (128 bytes); -1 NaN, -2 Infinity, -3 -Infinity.</summary>
    internal static int Format(Decimal128Bits value, Span<byte> text)
    {
        var negative = (value.High >> 63) != 0;
        if (((value.High >> 58) & 0x1F) == 0x1F)
            return -1;
        if (((value.High >> 58) & 0x1F) == 0x1E)
            return negative ? -3 : -2;
        UInt128 coefficient;
        int exponent;
        if (((value.High >> 61) & 3) == 3)
        {
            coefficient = UInt128.Zero; // the large-coefficient form always exceeds 34 digits: non-canonical, read as zero
            exponent = 0;
        }
        else
        {
            coefficient = ((UInt128)(value.High & ((1UL << 49) - 1)) << 64) | value.Low;
            exponent = (int)((value.High >> 49) & 0x3FFF) - ExponentBias;
            if (coefficient > MaxCoefficient)
                coefficient = UInt128.Zero;
        }
        coefficient = Strip(coefficient, out var zeros);
        exponent = coefficient == UInt128.Zero ? 0 : exponent + zeros;

        Span<byte> digits = stackalloc byte[40];
        coefficient.TryFormat(digits, out var n, default, CultureInfo.InvariantCulture);
        digits = digits[..n];
        var at = 0;
        if (negative)
            text[at++] = (byte)'-';
        if (exponent >= 0 && n + exponent <= PlainZeros)
        {
            digits.CopyTo(text[at..]);
            at += n;
            text.Slice(at, exponent).Fill((byte)'0');
            return at + exponent;
        }
        if (exponent < 0 && -exponent - n <= PlainZeros)
        {
            var whole = n + exponent;
            if (whole > 0)
            {
                digits[..whole].CopyTo(text[at..]);
                at += whole;
            }
            else
            {
                text[at++] = (byte)'0';
            }
            text[at++] = (byte)'.';
            if (whole < 0)
            {
                text.Slice(at, -whole).Fill((byte)'0');
                at += -whole;
            }
            digits[Math.Max(whole, 0)..].CopyTo(text[at..]);
            return at + n - Math.Max(whole, 0);
        }
        text[at++] = digits[0];
        if (n > 1)
        {
            text[at++] = (byte)'.';
            digits[1..].CopyTo(text[at..]);
            at += n - 1;
        }
        text[at++] = (byte)'E';
        var power = exponent + n - 1;
        text[at++] = power < 0 ? (byte)'-' : (byte)'+';
        Math.Abs(power).TryFormat(text[at..], out var powerLength, default, CultureInfo.InvariantCulture);
        return at + powerLength;
    }
}
