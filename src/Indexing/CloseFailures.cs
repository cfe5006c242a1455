namespace RavenLite.Indexing;

/// <summary>
/// Closing releases every part even when one throws: each step runs through <see cref="Try"/>, and the failures are
/// rethrown together at the end.
/// </summary>
internal sealed class CloseFailures
{
    private List<Exception>? _failures;

    public void Try(Action close)
    {
#pragma warning disable CA1031 // Every part must be released; the failures are rethrown together by ThrowIfAny.
        try
        {
            close();
        }
        catch (Exception ex)
        {
            (_failures ??= []).Add(ex);
        }
#pragma warning restore CA1031
    }

    public void ThrowIfAny(string message)
    {
        if (_failures is not null)
            throw new AggregateException(message, _failures);
    }
}
