namespace RavenLite;

/// <summary>
/// A query could not be parsed, or names something its index does not have. The message quotes the query and
/// says at which position (zero-based, in characters) it failed.
/// </summary>
public sealed class QueryException : Exception
{
    /// <summary>Creates the exception for <paramref name="query"/> failing at <paramref name="position"/>.</summary>
    public QueryException(string query, int position, string problem)
        : base($"Cannot parse query '{Shown(query)}' at position {position}: {problem}")
    {
        Query = query;
        Position = position;
    }

    /// <summary>Creates the exception with a message of its own.</summary>
    public QueryException() : base("The query could not be parsed.") { }

    /// <summary>Creates the exception with a message of its own.</summary>
    public QueryException(string message) : base(message) { }

    /// <summary>Creates the exception with a message of its own and the error behind it.</summary>
    public QueryException(string message, Exception innerException) : base(message, innerException) { }

    /// <summary>A query too long to quote whole is quoted by its start and its length.</summary>
    private static string Shown(string query) =>
        query is { Length: > MaxQuoted } ? $"{query[..MaxQuoted]}... ({query.Length:N0} characters)" : query;

    private const int MaxQuoted = 200;

    /// <summary>The query text; null when the exception was made without one.</summary>
    public string? Query { get; }

    /// <summary>Where in <see cref="Query"/> it failed, in characters from 0; -1 when unknown.</summary>
    public int Position { get; } = -1;
}
