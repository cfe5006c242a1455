using System.Collections;

namespace RavenLite.Client;

/// <summary>
/// A query whose results are read into something other than the entity (<see cref="RavenQuery{T}.Select{TResult}"/>),
/// run by <see cref="ToList"/> (or by enumerating it) for every match, in pages of at most 1,024 as
/// <see cref="RavenQuery{T}.ToList"/>. The results are new objects every run, never tracked by the session.
/// </summary>
/// <typeparam name="TResult">What each result is read as.</typeparam>
public sealed class ProjectedQuery<TResult> : IEnumerable<TResult>
{
    private readonly Func<List<TResult>> _run;
    private readonly Func<CancellationToken, Task<List<TResult>>> _runAsync;

    internal ProjectedQuery(Func<List<TResult>> run, Func<CancellationToken, Task<List<TResult>>> runAsync)
    {
        _run = run;
        _runAsync = runAsync;
    }

    /// <summary>Runs the query (as <see cref="RavenQuery{T}.ToList"/>: every match, one round trip a page) and reads each result.</summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    /// <exception cref="QueryException">The query cannot be parsed.</exception>
    /// <exception cref="TimeoutException">Waiting for non-stale results took longer than the timeout.</exception>
    public List<TResult> ToList() => _run();

    /// <inheritdoc cref="ToList"/>
    /// <param name="cancellationToken">Cancels the wait for the server or the index.</param>
    public Task<List<TResult>> ToListAsync(CancellationToken cancellationToken = default) => _runAsync(cancellationToken);

    /// <summary>Runs the query, as <see cref="ToList"/> does, and walks its results.</summary>
    public IEnumerator<TResult> GetEnumerator() => ToList().GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}
