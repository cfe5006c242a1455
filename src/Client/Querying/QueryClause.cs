using System.Linq.Expressions;

namespace RavenLite.Client.Querying;

/// <summary>
/// One condition of a query as Lucene text: given as text, or translated from a LINQ predicate when the predicate is
/// given (so an unsupported one is refused there) and again at a run where a value it read from outside the entity
/// has changed (<see cref="CapturedValues"/>): <c>n = 2</c> after <c>q = query.Where(x =&gt; x.N == n)</c> is read by the
/// next run of <c>q</c>, as LINQ to Objects reads it.
/// </summary>
internal sealed class QueryClause
{
    private readonly LambdaExpression? _predicate;
    private readonly Func<LambdaExpression, string>? _translate;
    private readonly QueryClause? _either;
    private string _text;
    private CapturedValues? _captured;

    private QueryClause(string text, LambdaExpression? predicate = null, Func<LambdaExpression, string>? translate = null,
        CapturedValues? captured = null, QueryClause? either = null)
    {
        _text = text;
        _predicate = predicate;
        _translate = translate;
        _captured = captured;
        _either = either;
    }

    /// <summary>A condition in Lucene syntax.</summary>
    public static QueryClause FromText(string text) => new(text);

    /// <summary>A predicate translated by <paramref name="translate"/> now (refusing it now), and again when what it read changes.</summary>
    public static QueryClause FromPredicate(LambdaExpression predicate, Func<LambdaExpression, string> translate)
    {
        var (text, captured) = CapturedValues.Record(() => translate(predicate));
        return new(text, predicate, translate, captured);
    }

    /// <summary>This condition or <paramref name="text"/>.</summary>
    public QueryClause OrElse(string text) => new(text, either: this);

    /// <summary>The condition as it reads now.</summary>
    public string Current()
    {
        if (_either is not null)
            return $"({_either.Current()}) OR ({_text})";
        if (_captured is not null && _captured.Changed())
            (_text, _captured) = CapturedValues.Record(() => _translate!(_predicate!));
        return _text;
    }
}
