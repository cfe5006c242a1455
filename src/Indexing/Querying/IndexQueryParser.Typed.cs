using System.Globalization;
using Lucene.Net.Index;
using Lucene.Net.Search;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Queries of <see cref="Definitions.FieldAnalysis.Typed"/> fields: the field name's suffix picks the kind of value
/// (<see cref="TypedValues"/>); without one, a quoted or non-numeric term matches strings and booleans exactly, and an
/// unquoted number (or a range of numbers) matches numbers by value.
/// </summary>
internal sealed partial class IndexQueryParser
{
    /// <summary>A typed field named with or without a suffix; null when <paramref name="field"/> names no typed field.</summary>
    private (CompiledField Field, string Suffix)? ResolveTyped(string? field)
    {
        if (field is null)
            return null;
        var (name, suffix) = TypedValues.Split(field);
        if (_index.FindField(name) is not { IsTyped: true } compiled)
            return null;
        if (suffix.Length > 0 && Array.IndexOf(TypedValues.Suffixes, suffix) < 0)
            throw Error(Offset(FieldToken(Term()) ?? Term()),
                $"'{suffix}' is not a kind of typed field '{name}'; the kinds are {string.Join(", ", TypedValues.Suffixes)}");
        if (suffix == TypedValues.Search && !compiled.IsSearchable)
            throw Error(Offset(FieldToken(Term()) ?? Term()),
                $"typed field '{name}' is not analyzed for word searches (its Analysis is Typed, not TypedSearch)");
        return (compiled, suffix);
    }

    private Query TypedTerm(CompiledField field, string suffix, string text, bool quoted)
    {
        var name = field.Name + suffix;
        switch (suffix)
        {
            case TypedValues.Search:
                return base.GetFieldQuery(name, text, quoted);
            case TypedValues.Text when quoted || !IsNumber(text):
                return new TermQuery(new Term(name, IndexFields.ExactTerm(text)));
            // A double holds 9007199254740993 as ...992: a number a decimal holds exactly is compared exactly, as
            // JSON reads it; any stored number equal to it is a decimal too (those a decimal cannot hold are out of
            // its range or nonzero below 1e-28).
            case TypedValues.Text when TypedValues.TryGetDecimal(text, out var exact):
                return new TermQuery(new Term(field.Name + TypedValues.Decimal, TypedValues.EncodeDecimal(exact)));
            case TypedValues.Text:
            case TypedValues.Number:
                var number = ParseDouble(field, text);
                return NumericRangeQuery.NewDoubleRange(field.Name + TypedValues.Number, NumericTerms.PrecisionStep, number, number, true, true);
            case TypedValues.IgnoreCase:
                return new TermQuery(new Term(name, IndexFields.ExactTerm(TypedValues.FoldCase(text))));
            case TypedValues.Decimal:
                return new TermQuery(new Term(name, TypedValues.EncodeDecimal(ParseDecimal(field, text))));
            case TypedValues.Instant:
                var ticks = ParseInstant(field, text);
                return NumericRangeQuery.NewInt64Range(name, NumericTerms.PrecisionStep, ticks, ticks, true, true);
            case TypedValues.Count:
                var count = ParseWhole(field, text);
                return NumericRangeQuery.NewInt64Range(name, NumericTerms.PrecisionStep, count, count, true, true);
            default: // TypedValues.Null
                if (text != "true")
                    throw Error(Offset(Term()), $"'{name}' takes only 'true' (write NOT {name}:true for values that are present)");
                return new TermQuery(new Term(name, "true"));
        }
    }

    /// <summary>
    /// A range of a typed field. Without a suffix, a range with a quoted end is one of strings, as a quoted term is a
    /// string (<c>Name:{* TO "10"}</c> is every string before "10", not every number below 10); a range of unquoted
    /// numbers compares numbers.
    /// </summary>
    private Query TypedRange(CompiledField field, string suffix, string? low, string? high, bool lowInclusive, bool highInclusive, bool quoted)
    {
        if (suffix == TypedValues.Text && low is null && high is null)
            return TypedAnyValue(field, suffix); // [* TO *]: any value, as Field:* (not only strings)
        if (suffix == TypedValues.Text && quoted)
            return TextRange(field.Name, low, high, lowInclusive, highInclusive);
        if (suffix == TypedValues.Text && (low ?? high) is not null && (low is null || IsNumber(low)) && (high is null || IsNumber(high))
            && (low is null || TypedValues.TryGetDecimal(low, out _)) && (high is null || TypedValues.TryGetDecimal(high, out _)))
            return ExactNumberRange(field, low, high, lowInclusive, highInclusive);
        return TypedTermRange(field, suffix, low, high, lowInclusive, highInclusive);
    }

    /// <summary>
    /// A range of numbers whose ends a decimal holds exactly: the doubles strictly between the ends' doubles (rounding
    /// keeps order, so those numbers are strictly inside), and the exact decimals from end to end (those a double
    /// would round onto an end: 9007199254740993 is not above 9007199254740992, yet its double is not above it either).
    /// </summary>
    private BooleanQuery ExactNumberRange(CompiledField field, string? low, string? high, bool lowInclusive, bool highInclusive) => new()
    {
        { TypedTermRange(field, TypedValues.Number, low, high, false, false), Occur.SHOULD },
        { TypedTermRange(field, TypedValues.Decimal, low, high, lowInclusive, highInclusive), Occur.SHOULD },
    };

    private MultiTermQuery TypedTermRange(CompiledField field, string suffix, string? low, string? high, bool lowInclusive, bool highInclusive)
    {
        var name = field.Name + suffix;
        MultiTermQuery range;
        switch (suffix)
        {
            case TypedValues.Text when (low is null || IsNumber(low)) && (high is null || IsNumber(high)) && (low ?? high) is not null:
            case TypedValues.Number:
                range = NumericRangeQuery.NewDoubleRange(field.Name + TypedValues.Number, NumericTerms.PrecisionStep,
                    low is null ? null : ParseDouble(field, low), high is null ? null : ParseDouble(field, high), lowInclusive, highInclusive);
                break;
            case TypedValues.Text:
                range = TextRange(name, low, high, lowInclusive, highInclusive);
                break;
            case TypedValues.IgnoreCase:
                range = TermRangeQuery.NewStringRange(name, low is null ? null : IndexFields.ExactTerm(TypedValues.FoldCase(low)),
                    high is null ? null : IndexFields.ExactTerm(TypedValues.FoldCase(high)), lowInclusive, highInclusive);
                break;
            case TypedValues.Decimal:
                range = TermRangeQuery.NewStringRange(name, low is null ? null : TypedValues.EncodeDecimal(ParseDecimal(field, low)),
                    high is null ? null : TypedValues.EncodeDecimal(ParseDecimal(field, high)), lowInclusive, highInclusive);
                break;
            case TypedValues.Instant:
                range = NumericRangeQuery.NewInt64Range(name, NumericTerms.PrecisionStep, low is null ? null : ParseInstant(field, low),
                    high is null ? null : ParseInstant(field, high), lowInclusive, highInclusive);
                break;
            case TypedValues.Count:
                range = NumericRangeQuery.NewInt64Range(name, NumericTerms.PrecisionStep, low is null ? null : ParseWhole(field, low),
                    high is null ? null : ParseWhole(field, high), lowInclusive, highInclusive);
                break;
            case TypedValues.Search:
                range = TermRangeQuery.NewStringRange(name, low?.ToLowerInvariant(), high?.ToLowerInvariant(), lowInclusive, highInclusive);
                break;
            default:
                throw Error(Offset(RangeStart()), $"'{name}' takes only the term 'true', not a range");
        }
        range.MultiTermRewriteMethod = MultiTermRewriteMethod;
        return range;
    }

    /// <summary><c>Field:*</c> on a typed field: any value of the kind, or for the field itself any value at all.</summary>
    private Query TypedAnyValue(CompiledField field, string suffix)
    {
        if (suffix != TypedValues.Text)
            return suffix == TypedValues.Null
                ? new TermQuery(new Term(field.Name + suffix, "true"))
                : TypedRange(field, suffix, null, null, true, true, quoted: false);
        var any = new BooleanQuery
        {
            { TypedTermRange(field, TypedValues.Text, null, null, true, true), Occur.SHOULD },
            { TypedTermRange(field, TypedValues.Number, null, null, true, true), Occur.SHOULD },
        };
        return any;
    }

    /// <summary>The Lucene field a prefix, wildcard, fuzzy or regular-expression query of a typed field reads.</summary>
    private string TypedTextField(CompiledField field, string suffix, string what) => suffix switch
    {
        TypedValues.Text or TypedValues.IgnoreCase or TypedValues.Search => field.Name + suffix,
        _ => throw Error(Offset(Term()), $"'{field.Name + suffix}' holds {KindName(suffix)}, which take terms and ranges, not {what}"),
    };

    /// <summary>A pattern as the kind's terms are written: upper-cased for <c>@ci</c>, lower-cased for <c>@text</c>.</summary>
    private static string TypedPattern(string suffix, string pattern) => suffix switch
    {
        TypedValues.IgnoreCase => TypedValues.FoldCase(pattern),
        TypedValues.Search => pattern.ToLowerInvariant(),
        _ => pattern,
    };

    private void ThrowIfOutgrowsLongTerms(string pattern)
    {
        if (IndexFields.OutgrowsLongTerms(pattern))
            throw Error(Offset(Term()), $"a prefix or pattern can be at most {IndexFields.LongTermPrefixBytes} bytes of UTF-8 long");
    }

    private static string KindName(string suffix) => suffix switch
    {
        TypedValues.Number => "numbers",
        TypedValues.Decimal => "exact decimals",
        TypedValues.Instant => "instants",
        TypedValues.Count => "array lengths",
        _ => "null markers",
    };

    private TermRangeQuery TextRange(string name, string? low, string? high, bool lowInclusive, bool highInclusive)
    {
        var range = TermRangeQuery.NewStringRange(name, low is null ? null : IndexFields.ExactTerm(low),
            high is null ? null : IndexFields.ExactTerm(high), lowInclusive, highInclusive);
        range.MultiTermRewriteMethod = MultiTermRewriteMethod;
        return range;
    }

    private static bool IsNumber(string text) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) && double.IsFinite(number);

    private double ParseDouble(CompiledField field, string text) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) && double.IsFinite(number)
            ? NumericTerms.Normalize(number)
            : throw Error(Offset(Term()), $"'{text}' is not a finite number, which '{field.Name}{TypedValues.Number}' compares");

    private decimal ParseDecimal(CompiledField field, string text) =>
        TypedValues.TryGetDecimal(text, out var value)
            ? value
            : throw Error(Offset(Term()), $"'{text}' is not a number a decimal holds exactly, which '{field.Name}{TypedValues.Decimal}' compares");

    private long ParseInstant(CompiledField field, string text) =>
        TypedValues.TryParseInstantQuery(text, out var ticks)
            ? ticks
            : throw Error(Offset(Term()), $"'{text}' is not an ISO 8601 date-time (such as 2020-01-02T03:04:05.678Z), which '{field.Name}{TypedValues.Instant}' compares");

    private long ParseWhole(CompiledField field, string text) =>
        long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var whole)
            ? whole
            : throw Error(Offset(Term()), $"'{text}' is not a whole number, which '{field.Name}{TypedValues.Count}' compares");
}
