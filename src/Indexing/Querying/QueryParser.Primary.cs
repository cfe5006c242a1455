namespace RavenLite.Indexing.Querying;

internal sealed partial class QueryParser
{
    private QuerySyntax ParsePrimary(FieldName? defaultField)
    {
        SkipWhitespace();
        if (AtEnd)
            throw Error(_pos, "a clause was expected here, but the query ends");
        var start = _pos;
        QuerySyntax syntax;
        if (TryChar('('))
        {
            syntax = ParseGroup(defaultField, start);
        }
        else if (_query.AsSpan(_pos).StartsWith("*:*", StringComparison.Ordinal))
        {
            _pos += 3;
            syntax = new MatchAllSyntax(start);
        }
        else if (Current is '"' or '[' or '{')
        {
            syntax = ParseValue(RequireField(defaultField, start), start);
        }
        else
        {
            syntax = ParseFieldOrBareTerm(defaultField, start);
        }
        RejectModifiers();
        return syntax;
    }

    private QuerySyntax ParseGroup(FieldName? defaultField, int openParen)
    {
        var inner = ParseOr(defaultField, openParen);
        _pos++; // ParseOr stopped at the ')'
        return inner;
    }

    private QuerySyntax ParseFieldOrBareTerm(FieldName? defaultField, int start)
    {
        var word = ReadWord();
        if (!AtEnd && Current == ':')
        {
            if (word.IsPrefix || word.HasEscapes || word.Text.Length == 0)
                throw Error(start, $"'{_query[start.._pos]}' is not a field name");
            _pos++;
            SkipWhitespace();
            if (AtEnd)
                throw Error(start, $"field '{word.Text}' has no value after ':'");
            var valueAt = _pos;
            var field = new FieldName(word.Text, start);
            return TryChar('(') ? ParseGroup(field, valueAt) : ParseValue(field, valueAt);
        }
        return ToTerm(RequireField(defaultField, start), word, start);
    }

    /// <summary>What may follow <c>field:</c> (or stand alone inside <c>field:( )</c>).</summary>
    private QuerySyntax ParseValue(FieldName field, int start)
    {
        if (TryChar('"'))
            return new PhraseSyntax(field, ReadQuoted(start), start);
        if (Current is '[' or '{')
            return ParseRange(field, start);
        var wordAt = _pos;
        var word = ReadWord();
        if (!AtEnd && Current == ':')
            throw Error(_pos, $"unexpected ':' in the value of field '{field.Name}'; escape it as \\: or quote the value");
        return ToTerm(field, word, wordAt);
    }

    private TermSyntax ToTerm(FieldName field, Word word, int start)
    {
        if (word.Text.Length == 0 && !word.IsPrefix)
            throw Error(start, AtEnd ? "a term was expected, but the query ends" : $"a term was expected, not '{Current}'");
        return new TermSyntax(field, word.Text, word.IsPrefix, start);
    }

    private RangeSyntax ParseRange(FieldName field, int start)
    {
        var includeLower = _query[_pos++] == '[';
        SkipWhitespace();
        var lower = ReadRangeEnd(start);
        SkipWhitespace();
        var toAt = _pos;
        if (!TryOperator("TO"))
            throw Error(toAt, "a range needs 'TO' between its ends, as in [1 TO 5]");
        SkipWhitespace();
        var upper = ReadRangeEnd(start);
        SkipWhitespace();
        if (AtEnd || Current is not (']' or '}'))
            throw Error(AtEnd ? start : _pos, "a range must end with ']' (inclusive) or '}' (exclusive)");
        var includeUpper = _query[_pos++] == ']';
        return new RangeSyntax(field, lower, upper, includeLower, includeUpper, start);
    }

    /// <returns>The end's text, or null for an open end (<c>*</c>).</returns>
    private string? ReadRangeEnd(int rangeStart)
    {
        if (AtEnd)
            throw Error(rangeStart, "this range is never closed");
        var at = _pos;
        if (TryChar('"'))
            return ReadQuoted(at);
        var word = ReadWord(rangeEnd: true);
        if (word.Text.Length == 0 && word.IsPrefix)
            return null;
        if (word.Text.Length == 0)
            throw Error(at, AtEnd ? "this range is never closed" : $"a range end was expected, not '{Current}'");
        if (word.IsPrefix)
            throw Error(at, "a range end cannot be a prefix (escape the '*' as \\* to mean the character)");
        return word.Text;
    }

    private FieldName RequireField(FieldName? field, int at) =>
        field ?? throw Error(at, $"'{Snippet(at)}' names no field; write field:value (such as Tag:Item), or *:* for everything");

    private void RejectModifiers()
    {
        if (AtEnd)
            return;
        if (Current == '^')
            throw Error(_pos, "boosts (^) are not supported: RavenLite does not score results");
        if (Current == '~')
            throw Error(_pos, "fuzzy and proximity searches (~) are not supported");
    }
}
