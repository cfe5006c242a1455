using System.Text;

namespace RavenLite.Indexing.Querying;

internal sealed partial class QueryParser
{
    private bool AtEnd => _pos >= _query.Length;

    private char Current => _query[_pos];

    private readonly record struct Word(string Text, bool IsPrefix, bool HasEscapes);

    /// <summary>
    /// Reads a term up to whitespace or a syntax character, unescaping <c>\x</c>. A trailing unescaped <c>*</c> makes
    /// it a prefix; other wildcards are refused. Inside a range, <c>]</c> and <c>}</c> also end it.
    /// </summary>
    private Word ReadWord(bool rangeEnd = false)
    {
        var text = new StringBuilder();
        var escapes = false;
        if (!AtEnd && Current == '/')
            throw Error(_pos, "regular expressions (/.../) are not supported");
        while (!AtEnd)
        {
            var c = Current;
            if (c == '\\')
            {
                if (_pos + 1 >= _query.Length)
                    throw Error(_pos, "the query ends with a lone '\\'; escape it as \\\\");
                text.Append(_query[_pos + 1]);
                _pos += 2;
                escapes = true;
                continue;
            }
            if (char.IsWhiteSpace(c) || c is '(' or ')' or '"' or '[' or ']' or '{' or '}' or '^' or '~' or ':')
                break;
            if (c == '*')
            {
                _pos++;
                if (!AtEnd && !EndsWord(Current, rangeEnd))
                    throw Error(_pos - 1, "wildcards are only supported as a trailing '*' (prefix search); escape it as \\* to mean the character");
                return new Word(text.ToString(), IsPrefix: true, escapes);
            }
            if (c == '?')
                throw Error(_pos, "the '?' wildcard is not supported; escape it as \\? to mean the character");
            text.Append(c);
            _pos++;
        }
        return new Word(text.ToString(), IsPrefix: false, escapes);
    }

    private static bool EndsWord(char c, bool rangeEnd) =>
        char.IsWhiteSpace(c) || c is ')' or '^' or '~' || (rangeEnd && c is ']' or '}');

    /// <summary>Reads the rest of a quoted string whose opening quote (at <paramref name="openQuote"/>) was consumed.</summary>
    private string ReadQuoted(int openQuote)
    {
        var text = new StringBuilder();
        while (!AtEnd)
        {
            var c = Current;
            _pos++;
            if (c == '"')
                return text.ToString();
            if (c == '\\')
            {
                if (AtEnd)
                    break;
                c = Current;
                _pos++;
            }
            text.Append(c);
        }
        throw Error(openQuote, "this quote is never closed");
    }

    private void SkipWhitespace()
    {
        while (!AtEnd && char.IsWhiteSpace(Current))
            _pos++;
    }

    private bool TryChar(char c)
    {
        if (AtEnd || Current != c)
            return false;
        _pos++;
        return true;
    }

    /// <summary>An operator word (AND, OR, NOT, TO) or symbol (&amp;&amp;, ||) here, followed by whitespace, '(' or the end.</summary>
    private bool IsOperator(string op)
    {
        if (!_query.AsSpan(_pos).StartsWith(op, StringComparison.Ordinal))
            return false;
        var after = _pos + op.Length;
        return after >= _query.Length || char.IsWhiteSpace(_query[after]) || _query[after] == '(' || !char.IsLetter(op[0]);
    }

    private bool TryOperator(string op)
    {
        if (!IsOperator(op))
            return false;
        _pos += op.Length;
        return true;
    }

    private string Snippet(int at)
    {
        var end = at;
        while (end < _query.Length && !char.IsWhiteSpace(_query[end]) && end - at < 40)
            end++;
        return _query[at..end];
    }

    private QueryException Error(int position, string problem) => new(_query, position, problem);
}
