namespace RavenLite.Client.Backend;

/// <summary>How a remote store reaches its server, and how many bytes of answers it keeps to revalidate (0: none).</summary>
internal sealed record RemoteOptions(TimeSpan RequestTimeout, string? ApiKey, HttpMessageHandler? Handler, long MaxResponseBytes);
