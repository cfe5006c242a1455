namespace RavenLite.Indexing.Querying;

/// <summary>
/// Parses the Lucene query syntax RavenLite supports (see <c>docs/indexing.md</c>): terms, quoted phrases,
/// ranges, trailing-<c>*</c> prefixes, <c>*:*</c>, AND/OR/NOT (and <c>&amp;&amp; || !</c>), <c>+</c>/<c>-</c>,
/// parentheses (also <c>field:(a b)</c>) and backslash escapes. OR is the default operator; AND binds tighter
/// than OR. Failures are <see cref="QueryException"/>s naming the position.
/// </summary>
internal sealed partial class QueryParser
{
    private readonly string _query;
    private int _pos;

    private QueryParser(string query) => _query = query;

    public static QuerySyntax Parse(string? query)
    {
        if (string.IsNullOrWhiteSpace(query))
            return new MatchAllSyntax(0);
        var parser = new QueryParser(query);
        var syntax = parser.ParseOr(defaultField: null, openParen: -1);
        if (!parser.AtEnd)
            throw parser.Error(parser._pos, $"unexpected '{parser.Current}'");
        return syntax;
    }

    private QuerySyntax ParseOr(FieldName? defaultField, int openParen)
    {
        var clauses = new List<BooleanClause>();
        var start = _pos;
        while (true)
        {
            SkipWhitespace();
            if (AtEnd || Current == ')')
                break;
            var operatorAt = _pos;
            if (TryOperator("OR") || TryOperator("||"))
            {
                if (clauses.Count == 0)
                    throw Error(operatorAt, "OR has nothing before it");
                SkipWhitespace();
                if (AtEnd || Current == ')')
                    throw Error(operatorAt, "OR has nothing after it");
            }
            else if (IsOperator("AND") || IsOperator("&&"))
            {
                throw Error(operatorAt, "AND has nothing before it");
            }
            clauses.Add(ParseAnd(defaultField));
        }
        if (openParen >= 0 && AtEnd)
            throw Error(openParen, "this '(' is never closed");
        if (openParen < 0 && !AtEnd)
            throw Error(_pos, "this ')' closes nothing");
        if (clauses.Count == 0)
            throw Error(openParen >= 0 ? openParen : start, openParen >= 0 ? "empty parentheses" : "the query is empty");
        return clauses is [{ Occur: Occur.Should } only] ? only.Query : new BooleanSyntax(clauses, start);
    }

    private BooleanClause ParseAnd(FieldName? defaultField)
    {
        var start = _pos;
        var first = ParseUnary(defaultField);
        SkipWhitespace();
        if (!IsOperator("AND") && !IsOperator("&&"))
            return first;
        var clauses = new List<BooleanClause> { Required(first) };
        while (true)
        {
            SkipWhitespace();
            var operatorAt = _pos;
            if (!TryOperator("AND") && !TryOperator("&&"))
                break;
            SkipWhitespace();
            if (AtEnd || Current == ')')
                throw Error(operatorAt, "AND has nothing after it");
            clauses.Add(Required(ParseUnary(defaultField)));
        }
        return new BooleanClause(Occur.Should, new BooleanSyntax(clauses, start));
    }

    private static BooleanClause Required(BooleanClause clause) =>
        clause.Occur == Occur.Should ? clause with { Occur = Occur.Must } : clause;

    private BooleanClause ParseUnary(FieldName? defaultField)
    {
        SkipWhitespace();
        var at = _pos;
        if (TryOperator("NOT") || TryChar('!'))
        {
            SkipWhitespace();
            if (AtEnd || Current == ')')
                throw Error(at, "NOT has nothing after it");
            return new BooleanClause(Occur.MustNot, ParseUnary(defaultField).Query);
        }
        if (TryChar('+'))
            return new BooleanClause(Occur.Must, ParsePrimaryAfterModifier(defaultField, at));
        if (TryChar('-'))
            return new BooleanClause(Occur.MustNot, ParsePrimaryAfterModifier(defaultField, at));
        return new BooleanClause(Occur.Should, ParsePrimary(defaultField));
    }

    private QuerySyntax ParsePrimaryAfterModifier(FieldName? defaultField, int modifierAt)
    {
        if (AtEnd || char.IsWhiteSpace(Current) || Current == ')')
            throw Error(modifierAt, $"'{_query[modifierAt]}' must be followed directly by a clause");
        return ParsePrimary(defaultField);
    }
}
