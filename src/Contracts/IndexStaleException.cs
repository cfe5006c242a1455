namespace RavenLite;

/// <summary>
/// A set operation (patch or delete by query) was refused because its index had not yet indexed every write: it would
/// change a set the documents no longer match. Wait for the index, or pass <c>allowStale</c> to accept its answer.
/// </summary>
public sealed class IndexStaleException : InvalidOperationException
{
    /// <summary>Creates the exception for <paramref name="indexName"/>, indexed up to <paramref name="indexEtag"/> of <paramref name="databaseEtag"/>.</summary>
    public IndexStaleException(string indexName, long indexEtag, long databaseEtag)
        : base($"Index '{indexName}' is stale: it has indexed up to etag {indexEtag} of {databaseEtag}. " +
               "Wait for it to catch up, or allow a stale index (allowStale=true) to act on what it matches now.")
    {
        IndexName = indexName;
    }

    /// <summary>Creates the exception with the standard message.</summary>
    public IndexStaleException() : base("The index is stale.") { }

    /// <summary>Creates the exception with a message.</summary>
    public IndexStaleException(string message) : base(message) { }

    /// <summary>Creates the exception with a message and the error behind it.</summary>
    public IndexStaleException(string message, Exception innerException) : base(message, innerException) { }

    /// <summary>The index; null when the exception was made without one.</summary>
    public string? IndexName { get; }
}
