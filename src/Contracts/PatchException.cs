namespace RavenLite;

/// <summary>
/// A patch could not be applied to the document: a JSON Patch <c>test</c> operation found a different value
/// (<see cref="TestFailed"/>), or an operation named a path the document does not have, or a value of the wrong kind.
/// Nothing from the call was written.
/// </summary>
public sealed class PatchException : Exception
{
    /// <summary>Creates the exception.</summary>
    public PatchException(string message, bool testFailed, Exception? innerException = null)
        : base(message, innerException) => TestFailed = testFailed;

    /// <summary>True when a <c>test</c> operation failed: the document is not in the state the patch expected.</summary>
    public bool TestFailed { get; }
}
