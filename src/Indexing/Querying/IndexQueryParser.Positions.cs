using System.Globalization;
using System.Text.RegularExpressions;
using Lucene.Net.QueryParsers.Classic;

namespace RavenLite.Indexing.Querying;

internal sealed partial class IndexQueryParser
{
    /// <summary>The tokens consumed so far, in order (the parser links each to the one before).</summary>
    private List<Token> Consumed()
    {
        var tokens = new List<Token>();
        for (var token = _root?.Next; token is not null; token = token.Next)
        {
            tokens.Add(token);
            if (ReferenceEquals(token, Token))
                break;
        }
        return tokens;
    }

    /// <summary>The term being turned into a query: the last one consumed, before any boost or fuzzy slop.</summary>
    private Token? Term()
    {
        var tokens = Consumed();
        for (var i = tokens.Count - 1; i >= 0; i--)
        {
            if (tokens[i].Kind is not (RegexpToken.CARAT or RegexpToken.NUMBER or RegexpToken.FUZZY_SLOP))
                return tokens[i];
        }
        return null;
    }

    /// <summary>The <c>[</c> or <c>{</c> of the range being turned into a query.</summary>
    private Token? RangeStart()
    {
        var tokens = Consumed();
        for (var i = tokens.Count - 1; i >= 0; i--)
        {
            if (tokens[i].Kind is RegexpToken.RANGEIN_START or RegexpToken.RANGEEX_START)
                return tokens[i];
        }
        return null;
    }

    /// <summary>
    /// Whether each end of the range being turned into a query was quoted. The grammar reads <c>""</c> as two quote
    /// characters rather than a quoted end (a quoted end holds at least one character); it is the empty string, quoted.
    /// </summary>
    private (bool Low, bool High) RangeEndsQuoted()
    {
        var tokens = Consumed();
        var start = tokens.FindLastIndex(token => token.Kind is RegexpToken.RANGEIN_START or RegexpToken.RANGEEX_START);
        return start < 0 ? (false, false) : (quoted(start + 1), quoted(start + 3));

        bool quoted(int at) => at < tokens.Count && (tokens[at].Kind == RegexpToken.RANGE_QUOTED || IsEmptyQuotes(tokens[at].Image));
    }

    private static bool IsEmptyQuotes(string? image) => image == "\"\"";

    /// <summary>The field name token that applies to <paramref name="term"/>: right before it, or before the group it is in.</summary>
    private Token? FieldToken(Token? term)
    {
        var tokens = Consumed();
        var at = term is null ? -1 : tokens.FindIndex(t => ReferenceEquals(t, term));
        var depth = 0;
        for (var i = at - 1; i >= 0; i--)
        {
            var kind = tokens[i].Kind;
            if (kind == RegexpToken.COLON)
                return i > 0 && depth == 0 ? tokens[i - 1] : null;
            if (kind == RegexpToken.RPAREN)
            {
                depth++;
            }
            else if (kind == RegexpToken.LPAREN)
            {
                if (depth == 0)
                    return i > 1 && tokens[i - 1].Kind == RegexpToken.COLON ? tokens[i - 2] : null;
                depth--;
            }
            else if (depth == 0 && kind is not (RegexpToken.RANGE_GOOP or RegexpToken.RANGE_QUOTED or RegexpToken.RANGE_TO
                or RegexpToken.RANGEIN_START or RegexpToken.RANGEEX_START))
            {
                return null; // another clause: the term had no field of its own
            }
        }
        return null;
    }

    /// <summary>A token's position: the parser's character stream counts columns from 0 over the whole query.</summary>
    private int Offset(Token? token) => token is null ? _query.Length : Math.Clamp(token.BeginColumn, 0, _query.Length);

    private int CurrentPosition() => Offset(Token);

    private QueryException ParseError(ParseException ex, QueryShape shape)
    {
        var inner = ex.InnerException as ParseException ?? ex;
        if (inner.CurrentToken?.Next is { } next)
        {
            if (next.Kind == RegexpToken.EOF && shape.UnclosedGroup is { } open)
                return Error(open, "this '(' is never closed");
            return Error(Offset(next), OneLine(inner.Message));
        }
        var lexical = ex.InnerException ?? ex;
        var column = ColumnPattern().Match(lexical.Message);
        var position = column.Success ? int.Parse(column.Groups[1].Value, CultureInfo.InvariantCulture) : _query.Length;
        return Error(Math.Clamp(position, 0, _query.Length), OneLine(lexical.Message));
    }

    private static string OneLine(string message) => Whitespace().Replace(message, " ").Trim();

    [GeneratedRegex(@"column (\d+)")]
    private static partial Regex ColumnPattern();

    [GeneratedRegex(@"\s+")]
    private static partial Regex Whitespace();
}
