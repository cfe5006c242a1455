namespace RavenLite.Storage.Postgres;

internal sealed partial class PostgresStorageEngine
{
    private readonly CommitListener _listener;

    public event Action? CommittedElsewhere;

    internal void RaiseCommittedElsewhere()
    {
        try
        {
            CommittedElsewhere?.Invoke();
        }
#pragma warning disable CA1031 // a handler's failure must not stop the listener
        catch (Exception)
#pragma warning restore CA1031
        {
        }
    }
}
