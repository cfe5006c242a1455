namespace RavenLite.Indexing.Querying;

/// <summary>
/// The cancellation of the search running on this thread. A search is synchronous, and the parsed queries it runs are
/// shared between requests (<see cref="DocumentIndex.ParseQuery"/> keeps them), so the term enumeration deep inside
/// Lucene (<see cref="BoundedTermsRewrite"/>) cannot be handed the caller's token: it finds it here instead.
/// </summary>
internal static class QueryCancellation
{
    [ThreadStatic]
    private static CancellationToken t_current;

    /// <summary>Makes <paramref name="token"/> the current search's cancellation until the scope is disposed.</summary>
    public static Scope Enter(CancellationToken token)
    {
        var previous = t_current;
        t_current = token;
        return new Scope(previous);
    }

    /// <exception cref="OperationCanceledException">The current search was cancelled.</exception>
    public static void ThrowIfCancellationRequested() => t_current.ThrowIfCancellationRequested();

    /// <summary>Puts the previous token back.</summary>
    public readonly struct Scope(CancellationToken previous) : IDisposable
    {
        /// <inheritdoc />
        public void Dispose() => t_current = previous;
    }
}
