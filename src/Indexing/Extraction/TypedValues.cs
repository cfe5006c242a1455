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

    /// <summary>Sorted doc values of the first string's invariant-culture sort key (<see cref="IndexFields.SetCollationKey"/>): a sort, not a query.</summary>
    public const string Collated = TypedFieldSuffixes.Collated;

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

    /// <summary>
    /// The decimal a JSON number's text holds exactly, if it does: parsing alone rounds past 28-29 significant digits
    /// and 28 decimal places (a double's <c>1.2345678901234567E-20</c> would read as <c>0.0000000000000000000123456789</c>),
    /// underflows to 0 and overflows, so the parsed value must write back the text's significant digits.
    /// </summary>
    public static bool TryGetDecimal(string text, out decimal value)
    {
        if (!decimal.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out value))
            return false;
        // Up to 15 characters without an exponent are at most 15 digits and 14 places: always exact (most numbers).
        return (text.Length <= 15 && text.AsSpan().IndexOfAny('e', 'E') < 0)
            || SignificantDigits(text) == SignificantDigits(value.ToString(CultureInfo.InvariantCulture));
    }

    /// <summary>A number's sign, significant digits and the power of ten of its last one: <c>-1.50e2</c> is <c>-15e1</c>.</summary>
    private static string SignificantDigits(string text)
    {
        var negative = text.StartsWith('-');
        var exponent = 0;
        var e = text.IndexOfAny(['e', 'E']);
        if (e >= 0)
        {
            if (!int.TryParse(text.AsSpan(e + 1), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out exponent))
                return text; // an exponent past int: no decimal's digits
            text = text[..e];
        }
        var point = text.IndexOf('.');
        if (point >= 0)
        {
            exponent -= text.Length - point - 1;
            text = text.Remove(point, 1);
        }
        var digits = text.TrimStart('-', '+').TrimStart('0');
        var trimmed = digits.TrimEnd('0');
        exponent += digits.Length - trimmed.Length;
        return trimmed.Length == 0 ? "0" : $"{(negative ? "-" : "")}{trimmed}e{exponent}";
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

    /// <summary>The case-insensitive form of a string: folded as <see cref="StringComparison.OrdinalIgnoreCase"/> compares (<see cref="OrdinalCaseFolding"/>).</summary>
    public static string FoldCase(string value) => OrdinalCaseFolding.Fold(value);
}
