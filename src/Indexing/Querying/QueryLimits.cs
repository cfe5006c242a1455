using Lucene.Net.QueryParsers.Classic;

namespace RavenLite.Indexing.Querying;

/// <summary>What a scan of the query's tokens found before parsing: where a group is left open, if one is.</summary>
internal readonly record struct QueryShape(int? UnclosedGroup);

/// <summary>
/// Bounds on a query checked before Lucene's recursive-descent parser sees it, so no query, however long or deep,
/// can overflow the stack or take unbounded memory: its length, and how deep its groups nest. (The number of
/// clauses per group is Lucene's <c>BooleanQuery.MaxClauseCount</c>, 1024.)
/// </summary>
internal static class QueryLimits
{
    /// <summary>The longest query text accepted, in characters.</summary>
    public const int MaxLength = 32 * 1024;

    /// <summary>The deepest nesting of parentheses accepted.</summary>
    public const int MaxNesting = 256;

    /// <summary>The query as error messages quote it: whole, or its start and its length when it is long.</summary>
    public static string Shown(string query) => query.Length > 200 ? $"{query[..200]}... ({query.Length:N0} characters)" : query;

    /// <exception cref="QueryException">The query is too long or nests too deep.</exception>
    public static QueryShape Check(string query)
    {
        if (query.Length > MaxLength)
        {
            throw new QueryException(query, MaxLength,
                $"the query is {query.Length:N0} characters long; at most {MaxLength:N0} are accepted");
        }
        var open = new Stack<int>();
        var tokens = new QueryParserTokenManager(new FastCharStream(new StringReader(query)));
        try
        {
            for (var token = tokens.GetNextToken(); token.Kind != RegexpToken.EOF; token = tokens.GetNextToken())
            {
                if (token.Kind == RegexpToken.LPAREN)
                {
                    open.Push(token.BeginColumn);
                    if (open.Count > MaxNesting)
                        throw new QueryException(query, token.BeginColumn, $"groups nest more than {MaxNesting} deep");
                }
                else if (token.Kind == RegexpToken.RPAREN && open.Count > 0)
                {
                    open.Pop();
                }
            }
        }
        catch (TokenMgrError)
        {
            // A lexical error (an unclosed quote): the parser reports it, with its position.
        }
        return new QueryShape(open.Count > 0 ? open.Peek() : null);
    }
}
