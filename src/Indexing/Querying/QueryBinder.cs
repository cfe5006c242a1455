using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Codecs;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Binds parsed syntax to an index: resolves fields, analyzes full-text words with the analyzer the index used,
/// parses numbers for numeric fields, and encodes terms as the postings hold them.
/// </summary>
internal sealed partial class QueryBinder(CompiledIndex index, string query)
{
    public static Matcher Bind(QuerySyntax syntax, CompiledIndex index, string? query) =>
        new QueryBinder(index, query ?? "").Bind(syntax) ?? new NothingMatcher();

    /// <returns>Null for a clause that analyzes to nothing (only stop words): as in Lucene, it is dropped.</returns>
    private Matcher? Bind(QuerySyntax syntax) => syntax switch
    {
        MatchAllSyntax => new AllMatcher(),
        TermSyntax term => BindTerm(term),
        PhraseSyntax phrase => BindPhrase(phrase),
        RangeSyntax range => BindRange(range),
        BooleanSyntax boolean => BindBoolean(boolean),
        _ => throw new InvalidOperationException($"Unknown query syntax {syntax.GetType().Name}."),
    };

    private Matcher? BindBoolean(BooleanSyntax boolean)
    {
        List<Matcher> must = [], should = [], mustNot = [];
        foreach (var clause in boolean.Clauses)
        {
            if (Bind(clause.Query) is not { } matcher)
                continue;
            (clause.Occur switch { Occur.Must => must, Occur.MustNot => mustNot, _ => should }).Add(matcher);
        }
        if (must.Count + should.Count + mustNot.Count == 0)
            return null;
        return must.Count + mustNot.Count == 0 && should.Count == 1 ? should[0] : new BooleanMatcher(must, should, mustNot);
    }

    private Matcher? BindTerm(TermSyntax term)
    {
        var field = ResolveField(term.Field);
        if (term.IsPrefix)
        {
            if (term.Text.Length == 0)
                return new PrefixMatcher(PostingKeys.FieldTerm(field.Ordinal, []));
            if (field.Definition.IsNumeric)
                throw Error(term.Position, $"prefix searches need a string field; '{field.Name}' is numeric (Sort {field.Definition.Sort})");
            var prefix = field.IsFullText ? term.Text.ToLowerInvariant() : term.Text;
            return new PrefixMatcher(PostingKeys.FieldTerm(field.Ordinal, TermEncoding.StringPrefix(prefix)));
        }
        if (field.Definition.IsNumeric)
            return new TermMatcher(PostingKeys.FieldTerm(field.Ordinal, NumericTerm(field, term.Text, term.Position)));
        if (!field.IsFullText)
            return new TermMatcher(PostingKeys.FieldTerm(field.Ordinal, TermEncoding.StringTerm(term.Text)));
        var words = Analyze(term.Text);
        if (words.Count == 0)
            return null;
        if (words.Count == 1)
            return WordMatcher(field, words[0].Word);
        // As Lucene's classic parser does by default: one unquoted value that analyzes to several words matches any of them.
        return new BooleanMatcher([], words.Select(w => (Matcher)WordMatcher(field, w.Word)).ToList(), []);
    }

    private Matcher? BindPhrase(PhraseSyntax phrase)
    {
        var field = ResolveField(phrase.Field);
        if (field.Definition.IsNumeric)
            return new TermMatcher(PostingKeys.FieldTerm(field.Ordinal, NumericTerm(field, phrase.Text.Trim(), phrase.Position)));
        if (!field.IsFullText)
            return new TermMatcher(PostingKeys.FieldTerm(field.Ordinal, TermEncoding.StringTerm(phrase.Text)));
        var words = Analyze(phrase.Text);
        return words.Count switch
        {
            0 => null,
            1 => WordMatcher(field, words[0].Word),
            _ => new PhraseMatcher(words
                .Select(w => (PostingKeys.FieldTerm(field.Ordinal, TermEncoding.StringTerm(w.Word)), w.Position - words[0].Position))
                .ToList()),
        };
    }

    private Matcher BindRange(RangeSyntax range)
    {
        var field = ResolveField(range.Field);
        if (range.Lower is null && range.Upper is null)
            return new PrefixMatcher(PostingKeys.FieldTerm(field.Ordinal, []));
        return new RangeMatcher(field.Ordinal,
            RangeEnd(field, range.Lower, range.Position), range.IncludeLower,
            RangeEnd(field, range.Upper, range.Position), range.IncludeUpper);
    }

    private byte[]? RangeEnd(CompiledField field, string? end, int position)
    {
        if (end is null)
            return null;
        if (field.Definition.IsNumeric)
            return NumericTerm(field, end, position);
        // As Lucene lower-cases expanded terms: full-text terms are lower case.
        return TermEncoding.StringTerm(field.IsFullText ? end.ToLowerInvariant() : end);
    }

    private static TermMatcher WordMatcher(CompiledField field, string word) =>
        new(PostingKeys.FieldTerm(field.Ordinal, TermEncoding.StringTerm(word)));

    private static List<(string Word, int Position)> Analyze(string text)
    {
        var words = new List<(string, int)>();
        TextAnalyzer.Analyze(text, 0, words);
        return words;
    }
}
