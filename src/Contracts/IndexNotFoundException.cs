namespace RavenLite;

/// <summary>
/// No index has the name asked for. A <see cref="KeyNotFoundException"/>, so code that catches that catches this.
/// </summary>
public sealed class IndexNotFoundException : KeyNotFoundException
{
    /// <summary>Creates the exception for the index named <paramref name="indexName"/>.</summary>
    public IndexNotFoundException(string indexName)
        : base($"There is no index named '{indexName}'.") => IndexName = indexName;

    /// <summary>Creates the exception with the standard message.</summary>
    public IndexNotFoundException() : base("There is no such index.") { }

    /// <summary>Creates the exception with a message and the error behind it.</summary>
    public IndexNotFoundException(string message, Exception innerException) : base(message, innerException) { }

    /// <summary>The name that was asked for; null when the exception was made without one.</summary>
    public string? IndexName { get; }
}
