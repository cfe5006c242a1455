using RavenLite.Client.Backend;

namespace RavenLite.Client;

public sealed partial class RavenQuery<T>
{
    private readonly List<QueryHighlights> _highlighted = [];
    private HighlightOptions? _highlight;

    /// <summary>
    /// Orders by relevance: every match is scored (BM25; <c>^boost</c> and <see cref="RavenQueryableExtensions.Search{T}(IQueryable{T}, System.Linq.Expressions.Expression{Func{T, object?}}, string, SearchOptions, float)"/>'s
    /// boost count), most relevant first; an <c>OrderBy</c> given as well breaks ties. The scores are in
    /// <see cref="QueryStatistics.Scores"/>. Pages by skipping (a scored query has no continuation).
    /// </summary>
    public RavenQuery<T> OrderByScore() => ByScore();

    /// <summary>
    /// Asks for highlighted fragments of <paramref name="fieldName"/> (a full-text index field, or a member searched with
    /// <c>Search</c>) for each result, handed out in <paramref name="highlights"/> and filled in as the query runs.
    /// </summary>
    public RavenQuery<T> Highlight(string fieldName, int fragmentCount, int fragmentLength, out QueryHighlights highlights,
        string preTag = "<b>", string postTag = "</b>")
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(fieldName);
        ArgumentNullException.ThrowIfNull(preTag);
        ArgumentNullException.ThrowIfNull(postTag);
        var filled = highlights = new QueryHighlights(fieldName);
        var options = new HighlightOptions { Fields = [fieldName], FragmentCount = fragmentCount, FragmentLength = fragmentLength, PreTag = preTag, PostTag = postTag };
        return With(query =>
        {
            query._highlighted.Add(filled);
            query._highlight = options;
        });
    }

    internal RavenQuery<T> Highlighted(string fieldName, int fragmentCount, int fragmentLength, out QueryHighlights highlights, string preTag, string postTag)
    {
        ThrowIfPaged(Expression);
        return Highlight(fieldName, fragmentCount, fragmentLength, out highlights, preTag, postTag);
    }

    internal RavenQuery<T> ByScore()
    {
        ThrowIfPaged("OrderByScore()");
        var copy = Clone();
        copy._byScore = true;
        return copy;
    }

    internal string FieldName(System.Linq.Expressions.LambdaExpression field) =>
        _typed ? _session.Translator.FieldPath(field) : Querying.LuceneTranslator.SortField(field);

    /// <summary>A page's highlights and scores, into the objects the query handed out.</summary>
    private void Annotate(QueryPage page)
    {
        if (page.Highlights is { } highlights)
        {
            for (var i = 0; i < page.Results.Count && i < highlights.Count; i++)
            {
                foreach (var target in _highlighted)
                {
                    if (highlights[i].TryGetValue(target.FieldName, out var fragments))
                        target.Add(page.Results[i].Key, fragments);
                }
            }
        }
        if (page.Scores is { } scores && _statistics is { } statistics)
        {
            for (var i = 0; i < page.Results.Count && i < scores.Count; i++)
                statistics.AddScore(page.Results[i].Key, scores[i]);
        }
    }
}
