namespace RavenLite.Server.Changes;

/// <summary>How many <c>/changes</c> streams this server has open, against <see cref="ChangesFeedOptions.MaxConnections"/>.</summary>
internal sealed class ChangesStreams
{
    /// <summary>The count; changed with <see cref="Interlocked"/> only.</summary>
    public int Open;
}
