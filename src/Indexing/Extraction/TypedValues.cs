using System.Globalization;
using System.Text;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// The one encoding per value type that a <see cref="Definitions.FieldAnalysis.Typed"/> field indexes, and that its
/// queries use: each JSON value is indexed under the Lucene fields of every kind it can be read as, named by the
/// field's name and a suffix (<c>Total@num</c>). The query parser, the sort and the aggregates read the same fields.
/// </summary>
internal static class TypedValues
{
    /// <summary>Strings (exact, any length) and booleans (<c>true</c>/<c>false</c>): the field's own name.</summary>
    public const string Text = "";

    /// <summary>Strings upper-cased (invariant), for ordinal case-insensitive matches.</summary>
    public const string IgnoreCase = TypedFieldSuffixes.IgnoreCase;

    /// <summary>Every finite JSON number as a double (numeric terms, doc values): how C# compares double and float.</summary>
    public const string Number = TypedFieldSuffixes.Number;

    /// <summary>
    /// Every JSON number that a <see cref="decimal"/> holds exactly, as a sortable string (<see cref="EncodeDecimal"/>):
    /// exact equality and order for integers of any CLR type (ulong included) and decimals.
    /// </summary>
    public const string Decimal = TypedFieldSuffixes.Exact;

    /// <summary>Strings in ISO 8601 date-time form, as the UTC instant's ticks: DateTime and DateTimeOffset compare as instants.</summary>
    public const string Instant = TypedFieldSuffixes.Instant;

    /// <summary>The number of items of an array value.</summary>
    public const string Count = TypedFieldSuffixes.Count;

    /// <summary>Term <c>true</c> when the value is null or missing (read through objects only, not arrays).</summary>
    public const string Null = TypedFieldSuffixes.Null;

    /// <summary>Strings analyzed as full text (words, lower-cased), in fields of <see cref="Definitions.FieldAnalysis.TypedSearch"/>.</summary>
    public const string Search = TypedFieldSuffixes.Search;

    /// <summary>
    /// Sorted-set doc values of every value of every kind, only for documents whose path gives more than one value
    /// (arrays): what facets count such documents by, once per distinct value. Each value is a kind byte
    /// (<see cref="AllText"/>...) then the value: UTF-8 (first 16 KB) for text, the <see cref="EncodeDecimal"/> form
    /// for decimals, 8 big-endian bytes of the doc-values long for numbers (double bits) and instants (ticks). Not
    /// queryable.
    /// </summary>
    public const string All = "@all";

    /// <summary>The kind bytes of <see cref="All"/> values, in this order, so each kind's values are one run of ordinals.</summary>
    public const byte AllText = 1, AllDecimal = 2, AllNumber = 3, AllInstant = 4;

    /// <summary>Every suffix a query may add to a typed field's name.</summary>
    public static readonly string[] Suffixes = [IgnoreCase, Number, Decimal, Instant, Count, Null, Search];

    /// <summary>Splits <c>Total@num</c> into the field name and the suffix (<see cref="Text"/> when there is none).</summary>
    public static (string Field, string Suffix) Split(string name)
    {
        var at = name.IndexOf('@', StringComparison.Ordinal);
        return at <= 0 ? (name, Text) : (name[..at], name[at..]);
    }

    /// <summary>
    /// A decimal as a string whose ordinal order is numeric order: sign class (<c>0</c> negative, <c>1</c> zero,
    /// <c>2</c> positive), a character for the decimal exponent, then the significant digits without trailing zeros
    /// (for negatives: the exponent and digits complemented and <c>~</c> after them), so <c>1.50</c> and <c>1.5</c>
    /// are one term and every decimal keeps its exact value.
    /// </summary>
    public static string EncodeDecimal(decimal value)
    {
        if (value == 0)
            return "1";
        var negative = value < 0;
        var text = Math.Abs(value).ToString(CultureInfo.InvariantCulture);
        var point = text.IndexOf('.', StringComparison.Ordinal);
        var whole = point < 0 ? text : text[..point];
        var fraction = point < 0 ? "" : text[(point + 1)..].TrimEnd('0');
        int exponent;
        string digits;
        if (whole == "0")
        {
            var zeros = fraction.Length - fraction.TrimStart('0').Length;
            exponent = -zeros;
            digits = fraction[zeros..];
        }
        else
        {
            exponent = whole.Length;
            digits = (whole + fraction).TrimEnd('0');
        }
        // A decimal's exponent lies in [-27, 29]: one character each way.
        var encoded = new StringBuilder(digits.Length + 3);
        if (negative)
        {
            encoded.Append('0').Append((char)(0x6A - (exponent + 28)));
            foreach (var digit in digits)
                encoded.Append((char)('9' - digit + '0'));
            encoded.Append('~');
        }
        else
        {
            encoded.Append('2').Append((char)(0x30 + exponent + 28));
            encoded.Append(digits);
        }
        return encoded.ToString();
    }

    /// <summary>The decimal an <see cref="EncodeDecimal"/> string stands for.</summary>
    public static decimal DecodeDecimal(ReadOnlySpan<char> encoded)
    {
        if (encoded is "1")
            return 0;
        var negative = encoded[0] == '0';
        var exponent = negative ? 0x6A - encoded[1] - 28 : encoded[1] - 0x30 - 28;
        var digits = negative ? encoded[2..^1] : encoded[2..];
        // value = 0.d1d2...dn x 10^exponent = (d1...dn) x 10^(exponent - n): at most 29 digits, so a UInt128 holds them.
        UInt128 mantissa = 0;
        foreach (var c in digits)
            mantissa = mantissa * 10 + (uint)(negative ? '9' - c : c - '0');
        var scale = digits.Length - exponent;
        for (; scale < 0; scale++)
            mantissa *= 10;
        return new decimal((int)(uint)mantissa, (int)(uint)(mantissa >> 32), (int)(uint)(mantissa >> 64), negative, (byte)scale);
    }

    /// <summary>The decimal a JSON number's text holds exactly, if it does (not one that underflows to 0 or overflows).</summary>
    public static bool TryGetDecimal(string text, out decimal value)
    {
        if (!decimal.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out value))
            return false;
        if (value != 0)
            return true;
        // "1E-30" parses as 0: only a text whose digits are all zeros is zero.
        foreach (var c in text)
        {
            if (c is >= '1' and <= '9')
                return false;
            if (c is 'e' or 'E')
                break;
        }
        return true;
    }

    /// <summary>
    /// Reads an ISO 8601 date-time (<c>2020-01-02T03:04:05</c>, optional fraction, optional <c>Z</c> or offset) as UTC
    /// ticks; without a zone the time is taken as UTC, as the LINQ translator reads an unspecified DateTime.
    /// </summary>
    public static bool TryGetInstant(ReadOnlySpan<char> text, out long utcTicks)
    {
        utcTicks = 0;
        if (text.Length < 19 || text.Length > 40 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' || text[16] != ':')
            return false;
        if (!DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out var instant))
            return false;
        utcTicks = instant.UtcTicks;
        return true;
    }

    /// <summary>Query text for an instant: ISO 8601, or a number of UTC ticks.</summary>
    public static bool TryParseInstantQuery(string text, out long utcTicks) =>
        TryGetInstant(text, out utcTicks)
        || long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out utcTicks);

    /// <summary>The case-insensitive form of a string: upper-cased char by char, as ordinal-ignore-case compares.</summary>
    public static string FoldCase(string value) => value.ToUpperInvariant();
}
