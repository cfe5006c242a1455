namespace RavenLite.Client.Backend;

/// <summary>How a remote store reaches its server.</summary>
internal sealed record RemoteOptions(TimeSpan RequestTimeout, string? ApiKey, HttpMessageHandler? Handler);
