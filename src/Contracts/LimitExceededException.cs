namespace RavenLite;

/// <summary>
/// A request asks for more work than one of the database's bounds allows: a regular expression, wildcard, fuzzy or
/// prefix term too long or whose automaton would be too large, a multi-term query that matches too many terms, a
/// patch with too many operations or one that grows the document past its limit. Nothing was done or written. It is a
/// caller's mistake (an <see cref="ArgumentException"/>); <see cref="Limit"/> names the bound, and the message says
/// what was asked and what is allowed.
/// </summary>
public sealed class LimitExceededException : ArgumentException
{
    /// <summary>Creates the exception for the bound named <paramref name="limit"/>.</summary>
    public LimitExceededException(string limit, string message) : base(message) => Limit = limit;

    /// <summary>Creates the exception with a message of its own.</summary>
    public LimitExceededException() : base("A request exceeded one of the database's limits.") => Limit = "";

    /// <summary>Creates the exception with a message of its own.</summary>
    public LimitExceededException(string message) : base(message) => Limit = "";

    /// <summary>Creates the exception with a message of its own and the error behind it.</summary>
    public LimitExceededException(string message, Exception innerException) : base(message, innerException) => Limit = "";

    /// <summary>The name of the bound that was exceeded, e.g. <c>MaxAutomatonStates</c>; empty when not given.</summary>
    public string Limit { get; }
}
