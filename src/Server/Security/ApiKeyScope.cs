namespace RavenLite.Server.Security;

/// <summary>What an API key may do; each scope includes the ones before it.</summary>
internal enum ApiKeyScope
{
    /// <summary>Read documents, query indexes, read statistics and the changes feed.</summary>
    Read,

    /// <summary>Also write, patch and delete documents (PUT, POST, PATCH, DELETE, bulk writes and inserts).</summary>
    Write,

    /// <summary>Also change index definitions and use the <c>/admin</c> routes (backups).</summary>
    Admin,
}

/// <summary>One key and its scope, as configured (<c>RavenLite:ApiKeys:0:Key</c>, <c>RavenLite:ApiKeys:0:Scope</c>).</summary>
internal sealed class ScopedApiKey
{
    /// <summary>The key, at least <see cref="RavenLiteServerOptions.MinimumApiKeyLength"/> characters.</summary>
    public string Key { get; set; } = "";

    /// <summary>What it may do (default Read).</summary>
    public ApiKeyScope Scope { get; set; } = ApiKeyScope.Read;
}
