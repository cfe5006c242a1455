using System.Buffers;
using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Indexing.Extraction;
using RavenLite.Server.Errors;
using RavenLite.Server.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Indexes;

/// <summary>
/// What a query answer holds besides its page of documents, from <c>include=</c> and <c>fetch=</c> (each repeatable,
/// paths as in index definitions): the documents the results refer to (an <c>Includes</c> section, read by
/// <see cref="DocumentDatabase.Included"/>, the rule multi-get uses), and results cut down to the fetched fields
/// (<see cref="FieldProjection"/>, copied from each document's cached UTF-8 JSON).
/// </summary>
internal sealed class QueryResultShape
{
    private QueryResultShape(string[] includePaths, FieldProjection? projection)
    {
        IncludePaths = includePaths;
        Projection = projection;
        KeyText = string.Concat(includePaths.Select(path => $"i{path.Length}:{path}"))
            + string.Concat((projection?.Paths ?? []).Select(path => $"f{path.Length}:{path}"));
    }

    /// <summary>Whole documents and no includes: the plain query answer.</summary>
    public static QueryResultShape None { get; } = new([], null);

    /// <summary>The <c>include=</c> paths, each once, in the order given.</summary>
    public IReadOnlyList<string> IncludePaths { get; }

    /// <summary>The fields each result is cut down to; null for whole documents.</summary>
    public FieldProjection? Projection { get; }

    /// <summary>The include and fetch paths as one text in which no two different shapes look alike (for the response key).</summary>
    public string KeyText { get; }

    /// <summary>Reads and checks <c>include=</c> and <c>fetch=</c>; a bad path is a 400 naming the parameter and the path.</summary>
    public static QueryResultShape Parse(HttpRequest request)
    {
        var includes = request.Query["include"].OfType<string>().Distinct(StringComparer.Ordinal).ToArray();
        var fetches = request.Query["fetch"].OfType<string>().ToArray();
        if (includes.Length == 0 && fetches.Length == 0)
            return None;
        try
        {
            foreach (var path in includes)
                DocumentReferences.Validate(path);
        }
        catch (ArgumentException ex)
        {
            throw RequestException.BadRequest($"Query parameter 'include': {ArgumentMessage.Of(ex)}");
        }
        FieldProjection? projection;
        try
        {
            projection = fetches.Length == 0 ? null : FieldProjection.Parse(fetches);
        }
        catch (ArgumentException ex)
        {
            throw RequestException.BadRequest($"Query parameter 'fetch': {ArgumentMessage.Of(ex)}");
        }
        return new QueryResultShape(includes, projection);
    }

    /// <summary>
    /// Writes the results (whole documents, with a scored query's <c>@index-score</c> and any <c>@highlights</c> in
    /// their metadata, or the fetched fields of each) and, with include paths,
    /// <c>],"Includes":[...</c>; the caller wrote <c>{"Results":[</c> and closes the last array.
    /// </summary>
    public async ValueTask WriteResultsAsync(DocumentJsonWriter writer, QueryResult result, IReadOnlyList<Document> includes,
        CancellationToken cancellationToken)
    {
        var results = result.Results;
        if (Projection is null && (result.Scores is not null || result.Highlights is not null))
            await writer.AnnotatedDocumentsAsync(results, result.Scores, result.Highlights, cancellationToken);
        else if (Projection is null)
            await writer.DocumentsAsync(results, cancellationToken);
        else
            await WriteProjectedAsync(writer, Projection, results, cancellationToken);
        if (IncludePaths.Count > 0)
        {
            writer.Raw("],\"Includes\":["u8);
            await writer.DocumentsAsync(includes, cancellationToken);
        }
    }

    private static async ValueTask WriteProjectedAsync(DocumentJsonWriter writer, FieldProjection projection, IReadOnlyList<Document> results,
        CancellationToken cancellationToken)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        for (var i = 0; i < results.Count; i++)
        {
            if (i > 0)
                writer.Raw(","u8);
            buffer.ResetWrittenCount();
            projection.Write(results[i].DataJson.Span, buffer);
            writer.Raw(buffer.WrittenSpan);
            if (i % 16 == 15)
                await writer.FlushIfNeededAsync(cancellationToken);
        }
    }
}
