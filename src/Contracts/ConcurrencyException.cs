namespace RavenLite;

/// <summary>
/// A write named an expected etag that did not match the document's current one. Nothing from the call
/// was written.
/// </summary>
public sealed class ConcurrencyException : Exception
{
    /// <summary>Creates the exception.</summary>
    public ConcurrencyException(string key, long? expectedEtag, long? actualEtag, int? commandIndex = null)
        : base(Describe(key, expectedEtag, actualEtag, commandIndex))
    {
        Key = key;
        ExpectedEtag = expectedEtag;
        ActualEtag = actualEtag;
        CommandIndex = commandIndex;
    }

    /// <summary>The document's key.</summary>
    public string Key { get; }

    /// <summary>The etag the caller expected (0: that the document did not exist).</summary>
    public long? ExpectedEtag { get; }

    /// <summary>The document's current etag; null when it does not exist.</summary>
    public long? ActualEtag { get; }

    /// <summary>In a batch, the zero-based index of the command that failed.</summary>
    public int? CommandIndex { get; }

    private static string Describe(string key, long? expected, long? actual, int? index)
    {
        var where = index is null ? "" : $"Batch command {index}: ";
        var now = actual is null ? "it does not exist" : $"its current etag is {actual}";
        var wanted = expected == 0 ? "expected it not to exist" : $"expected etag {expected}";
        return $"{where}concurrency conflict on document '{key}': {wanted}, but {now}. Nothing was written.";
    }
}
