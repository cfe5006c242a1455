namespace RavenLite.Server.Changes;

/// <summary>
/// The <c>/changes</c> stream's limits, bound from <c>RavenLite:Changes</c> (<c>--RavenLite:Changes:BufferSize=4096</c>).
/// </summary>
public sealed class ChangesFeedOptions
{
    /// <summary>How many changes may wait for one connection; memory per connection is bounded by it. Default 4096.</summary>
    public int BufferSize { get; set; } = 4096;

    /// <summary>How long a full buffer may wait for the client to read before the connection is cut off. Default 10 s.</summary>
    public TimeSpan SlowConsumerTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>How long a cut-off connection may take to receive its last event before it is closed. Default 10 s.</summary>
    public TimeSpan CutOffGrace { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>How often an idle stream sends a comment line, so proxies and clients know it is alive. Default 15 s.</summary>
    public TimeSpan HeartbeatInterval { get; set; } = TimeSpan.FromSeconds(15);

    /// <summary>
    /// How many <c>/changes</c> streams may be open at once; one more is answered 503 <c>too-many-connections</c>.
    /// Default 64. Each stream holds a buffer and, while it catches up from an old etag, reads storage.
    /// </summary>
    public int MaxConnections { get; set; } = 64;

    internal void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxConnections, 1, "Changes:MaxConnections");
        ArgumentOutOfRangeException.ThrowIfLessThan(BufferSize, 1, "Changes:BufferSize");
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(SlowConsumerTimeout, TimeSpan.Zero, "Changes:SlowConsumerTimeout");
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(CutOffGrace, TimeSpan.Zero, "Changes:CutOffGrace");
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(HeartbeatInterval, TimeSpan.Zero, "Changes:HeartbeatInterval");
    }
}
