using Lucene.Net.Index;
using Lucene.Net.QueryParsers.Classic;
using Lucene.Net.Search;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Lucene's classic <see cref="QueryParser"/>, bound to one index: a field must be one of the index's (else a
/// <see cref="QueryException"/> naming them); exact fields take the term as it is written (a <see cref="TermQuery"/>,
/// no analysis, case-sensitive); full-text fields are analyzed (<see cref="FullTextAnalyzer"/>); numeric fields
/// turn terms and ranges into <see cref="NumericRangeQuery"/>. Prefix, wildcard and range queries rewrite to
/// constant-score filters, never to a clause per term. A purely negative group matches every document but those.
/// </summary>
internal sealed partial class IndexQueryParser : QueryParser
{
    private readonly CompiledIndex _index;
    private readonly string _query;
    private Token? _root;
    private QueryException? _bindingError;

    private IndexQueryParser(CompiledIndex index, string query)
        : base(LuceneSettings.Version, null, FullTextAnalyzer.Instance)
    {
        _index = index;
        _query = query;
        LowercaseExpandedTerms = false; // exact fields are case-sensitive; full-text ones are lower-cased below
        AllowLeadingWildcard = true; // EndsWith and Contains are *suffix and *part*
        MultiTermRewriteMethod = BoundedTermsRewrite.Instance; // constant-score filter, bounded (MultiTermLimits)
        DefaultOperator = OR_OPERATOR;
    }

    /// <summary>Parses <paramref name="query"/> for <paramref name="index"/>; null or blank matches every document.</summary>
    /// <exception cref="QueryException">The query cannot be parsed, is too long or too deep, or names what the index does not have.</exception>
    public static Query Parse(string? query, CompiledIndex index)
    {
        if (string.IsNullOrWhiteSpace(query))
            return new MatchAllDocsQuery();
        var shape = QueryLimits.Check(query);
        if (Utf16Text.IndexOfUnpairedSurrogate(query) is var half and >= 0)
        {
            // Lucene would encode it as U+FFFD and match the documents holding that character instead.
            throw new QueryException(query, half, "it holds half of a character (an unpaired UTF-16 surrogate), which no document " +
                "holds; compare whole characters");
        }
        var parser = new IndexQueryParser(index, query);
        try
        {
            var parsed = parser.Parse(query);
            return parser._bindingError is { } bindingError ? throw bindingError : parsed;
        }
        catch (LimitExceededException ex)
        {
            throw new LimitExceededException(ex.Limit, $"Query '{QueryLimits.Shown(query)}' is refused: {ex.Message}.");
        }
        catch (ParseException ex) when (ex.InnerException is not BooleanQuery.TooManyClausesException)
        {
            throw parser.ParseError(ex, shape);
        }
        catch (Exception ex) when (ex is BooleanQuery.TooManyClausesException || ex.InnerException is BooleanQuery.TooManyClausesException)
        {
            throw new QueryException(query, parser.CurrentPosition(),
                $"it has more than {BooleanQuery.MaxClauseCount} clauses in one group, the most a query may have");
        }
    }

    public override void ReInit(ICharStream stream)
    {
        base.ReInit(stream);
        _root = Token; // the token chain every consumed token hangs from: positions for errors
    }

    protected override Query GetFieldQuery(string field, string queryText, bool quoted) => Bind(() =>
    {
        if (ResolveTyped(field) is var (typed, suffix))
            return TypedTerm(typed, suffix, queryText, quoted);
        var compiled = Resolve(field, Term());
        if (compiled.Definition.IsNumeric)
            return NumericTerm(compiled, queryText);
        if (!compiled.IsFullText)
            return new TermQuery(new Term(compiled.Name, IndexFields.ExactTerm(queryText)));
        return base.GetFieldQuery(compiled.Name, queryText, quoted);
    });

    protected override Query GetFieldQuery(string field, string queryText, int slop) => Bind(() =>
    {
        if (ResolveTyped(field) is var (typed, suffix))
            return TypedTerm(typed, suffix, queryText, quoted: true);
        var compiled = Resolve(field, Term());
        return compiled.IsFullText ? base.GetFieldQuery(field, queryText, slop) : GetFieldQuery(field, queryText, quoted: true);
    });

    protected override Query GetRangeQuery(string field, string part1, string part2, bool startInclusive, bool endInclusive) => Bind(() =>
    {
        var start = RangeStart();
        var (lowQuoted, highQuoted) = RangeEndsQuoted();
        if (lowQuoted && IsEmptyQuotes(part1))
            part1 = "";
        if (highQuoted && IsEmptyQuotes(part2))
            part2 = "";
        if (ResolveTyped(field) is var (typed, suffix))
            return TypedRange(typed, suffix, part1, part2, startInclusive, endInclusive, quoted: lowQuoted || highQuoted);
        var compiled = Resolve(field, start);
        MultiTermLimits.CheckLength("a range bound", part1);
        MultiTermLimits.CheckLength("a range bound", part2);
        if (compiled.Definition.IsNumeric)
            return NumericRange(compiled, part1, part2, startInclusive, endInclusive, Offset(start));
        if (compiled.IsFullText)
        {
            part1 = Lower(part1);
            part2 = Lower(part2);
        }
        else
        {
            part1 = part1 is null ? null! : IndexFields.ExactTerm(part1);
            part2 = part2 is null ? null! : IndexFields.ExactTerm(part2);
        }
        var range = TermRangeQuery.NewStringRange(compiled.Name, part1, part2, startInclusive, endInclusive);
        range.MultiTermRewriteMethod = MultiTermRewriteMethod;
        return range;
    });

    protected override Query GetPrefixQuery(string field, string termStr) => Bind(() =>
    {
        if (ResolveTyped(field) is var (typed, suffix))
        {
            var name = TypedTextField(typed, suffix, "a prefix query");
            ThrowIfOutgrowsLongTerms(termStr);
            MultiTermLimits.CheckLength("the prefix", termStr);
            return base.GetPrefixQuery(name, TypedPattern(suffix, termStr));
        }
        var compiled = Resolve(field, Term());
        ThrowIfNumeric(compiled, "a prefix query");
        MultiTermLimits.CheckLength("the prefix", termStr);
        return base.GetPrefixQuery(compiled.Name, compiled.IsFullText ? Lower(termStr) : IndexFields.ExactTerm(termStr));
    });

    protected override Query GetWildcardQuery(string field, string termStr) => Bind(() =>
    {
        if (field == "*" && termStr == "*")
            return new MatchAllDocsQuery();
        if (ResolveTyped(field) is var (typed, suffix))
        {
            if (termStr == "*")
                return TypedAnyValue(typed, suffix);
            var name = TypedTextField(typed, suffix, "a wildcard query");
            ThrowIfOutgrowsLongTerms(termStr);
            return new LongValuesGuard(MultiTermLimits.Wildcard(name, TypedPattern(suffix, termStr)), name);
        }
        var compiled = Resolve(field, Term());
        if (termStr == "*")
            return AnyValue(compiled);
        ThrowIfNumeric(compiled, "a wildcard query");
        return compiled.IsFullText
            ? MultiTermLimits.Wildcard(compiled.Name, Lower(termStr))
            : new LongValuesGuard(MultiTermLimits.Wildcard(compiled.Name, termStr), compiled.Name);
    });

    protected override Query GetFuzzyQuery(string field, string termStr, float minSimilarity) => Bind(() =>
    {
        if (ResolveTyped(field) is var (typed, suffix))
        {
            MultiTermLimits.CheckLength("the fuzzy term", termStr, MultiTermLimits.MaxFuzzyTermLength);
            return base.GetFuzzyQuery(TypedTextField(typed, suffix, "a fuzzy query"), TypedPattern(suffix, termStr), minSimilarity);
        }
        var compiled = Resolve(field, Term());
        ThrowIfNumeric(compiled, "a fuzzy query");
        MultiTermLimits.CheckLength("the fuzzy term", termStr, MultiTermLimits.MaxFuzzyTermLength);
        return base.GetFuzzyQuery(compiled.Name, compiled.IsFullText ? Lower(termStr) : termStr, minSimilarity);
    });

    protected override Query GetRegexpQuery(string field, string termStr) => Bind(() =>
    {
        var at = Term();
        string name;
        var exact = true;
        if (ResolveTyped(field) is var (typed, suffix))
            name = TypedTextField(typed, suffix, "a regular expression");
        else
        {
            var compiled = Resolve(field, at);
            ThrowIfNumeric(compiled, "a regular expression");
            (name, exact) = (compiled.Name, !compiled.IsFullText);
        }
        try
        {
            var regex = MultiTermLimits.Regex(name, termStr);
            return exact ? new LongValuesGuard(regex, name) : regex;
        }
        catch (FormatException ex)
        {
            throw Error(Offset(at), ex.Message);
        }
    });

    protected override Query GetBooleanQuery(IList<BooleanClause> clauses, bool disableCoord)
    {
        var query = base.GetBooleanQuery(clauses, disableCoord);
        if (query is BooleanQuery boolean && boolean.Clauses.Count > 0 && boolean.Clauses.All(c => c.Occur == Occur.MUST_NOT))
            boolean.Add(new MatchAllDocsQuery(), Occur.SHOULD); // "-a -b": everything but a and b, not nothing
        return query;
    }

    private static string Lower(string text) => text?.ToLowerInvariant()!;

    private CompiledField Resolve(string? field, Token? at)
    {
        if (field is null)
            throw Error(Offset(at), "a term needs a field (there is no default field): write Field:term");
        if (_index.FindField(field) is { } compiled)
            return compiled;
        var fields = string.Join(", ", _index.Fields.Select(f => f.Name));
        var sameButCase = _index.Fields.FirstOrDefault(f => string.Equals(f.Name, field, StringComparison.OrdinalIgnoreCase));
        var hint = sameButCase is null ? "" : $" (field names are case-sensitive: did you mean '{sameButCase.Name}'?)";
        throw Error(Offset(FieldToken(at) ?? at), $"index '{_index.Definition.Name}' has no field '{field}'{hint}; its fields are {fields}");
    }

    private QueryException Error(int position, string problem) => new(_query, position, problem);

    /// <summary>
    /// Builds one clause; a binding error (unknown field, bad number) is kept, not thrown, so the parse goes on and a
    /// syntax error anywhere in the query is reported first, as a parser that checks syntax before fields would.
    /// </summary>
    private Query Bind(Func<Query> build)
    {
        try
        {
            return build();
        }
        catch (QueryException ex)
        {
            _bindingError ??= ex;
            return new BooleanQuery();
        }
    }
}
