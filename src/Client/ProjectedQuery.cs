using RavenLite.Client.Backend;

namespace RavenLite.Client;

/// <summary>
/// A query whose results are only some fields of each match (<see cref="RavenQuery{T}.Select{TResult}"/>), run by
/// <see cref="ToList"/> for every match (in pages of at most 1,024, as <see cref="RavenQuery{T}.ToList"/>). The results
/// are new objects every run, never tracked by the session.
/// </summary>
/// <typeparam name="TResult">What each result is read as.</typeparam>
public sealed class ProjectedQuery<TResult>
{
    private readonly Func<List<QueryPage>> _run;
    private readonly Func<CancellationToken, Task<List<QueryPage>>> _runAsync;
    private readonly Func<ReadOnlyMemory<byte>, TResult> _read;

    internal ProjectedQuery(Func<List<QueryPage>> run, Func<CancellationToken, Task<List<QueryPage>>> runAsync, Func<ReadOnlyMemory<byte>, TResult> read)
    {
        _run = run;
        _runAsync = runAsync;
        _read = read;
    }

    /// <summary>Runs the query (as <see cref="RavenQuery{T}.ToList"/>: every match, one round trip a page) and reads each result's fields.</summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    /// <exception cref="QueryException">The query cannot be parsed.</exception>
    /// <exception cref="TimeoutException">Waiting for non-stale results took longer than the timeout.</exception>
    public List<TResult> ToList() => Read(_run());

    /// <inheritdoc cref="ToList"/>
    /// <param name="cancellationToken">Cancels the wait for the server or the index.</param>
    public async Task<List<TResult>> ToListAsync(CancellationToken cancellationToken = default) =>
        Read(await _runAsync(cancellationToken).ConfigureAwait(false));

    private List<TResult> Read(List<QueryPage> pages)
    {
        var results = new List<TResult>(pages.Sum(page => page.Projections.Count));
        foreach (var page in pages)
        {
            foreach (var fields in page.Projections)
                results.Add(_read(fields));
        }
        return results;
    }
}
