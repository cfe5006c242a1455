using Lucene.Net.Search;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Querying;

internal sealed partial class IndexQueryParser
{
    /// <summary><c>Field:*</c>: documents with any value in the field.</summary>
    private MultiTermQuery AnyValue(CompiledField field)
    {
        MultiTermQuery any = field.Definition.Sort switch
        {
            Definitions.FieldSort.Long => NumericRangeQuery.NewInt64Range(field.Name, NumericTerms.PrecisionStep, null, null, true, true),
            Definitions.FieldSort.Double => NumericRangeQuery.NewDoubleRange(field.Name, NumericTerms.PrecisionStep, null, null, true, true),
            _ => TermRangeQuery.NewStringRange(field.Name, null, null, true, true),
        };
        any.MultiTermRewriteMethod = MultiTermRewriteMethod;
        return any;
    }

    private Query NumericTerm(CompiledField field, string text)
    {
        if (NumericTerms.TryParse(field, text, out var whole, out var number) is { } problem)
            throw Error(Offset(Term()), problem);
        return field.Definition.Sort == Definitions.FieldSort.Long
            ? NumericRangeQuery.NewInt64Range(field.Name, NumericTerms.PrecisionStep, whole, whole, true, true)
            : NumericRangeQuery.NewDoubleRange(field.Name, NumericTerms.PrecisionStep, number, number, true, true);
    }

    private MultiTermQuery NumericRange(CompiledField field, string? low, string? high, bool lowInclusive, bool highInclusive, int position)
    {
        long? lowWhole = null, highWhole = null;
        double? lowNumber = null, highNumber = null;
        foreach (var (text, isLow) in new[] { (low, true), (high, false) })
        {
            if (text is null)
                continue;
            if (NumericTerms.TryParse(field, text, out var whole, out var number) is { } problem)
                throw Error(position, problem);
            if (isLow)
                (lowWhole, lowNumber) = (whole, number);
            else
                (highWhole, highNumber) = (whole, number);
        }
        MultiTermQuery range = field.Definition.Sort == Definitions.FieldSort.Long
            ? NumericRangeQuery.NewInt64Range(field.Name, NumericTerms.PrecisionStep, lowWhole, highWhole, lowInclusive, highInclusive)
            : NumericRangeQuery.NewDoubleRange(field.Name, NumericTerms.PrecisionStep, lowNumber, highNumber, lowInclusive, highInclusive);
        range.MultiTermRewriteMethod = MultiTermRewriteMethod;
        return range;
    }

    private void ThrowIfNumeric(CompiledField field, string what)
    {
        if (field.Definition.IsNumeric)
            throw Error(Offset(Term()), $"field '{field.Name}' is a {field.Definition.Sort} field, which takes numbers and ranges, not {what}");
    }
}
