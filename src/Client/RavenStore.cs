using System.Collections.Concurrent;
using System.Reflection;
using RavenLite.Client.Backend;
using RavenLite.Client.Caching;
using RavenLite.Client.Serialization;
using RavenLite.Client.Session;

namespace RavenLite.Client;

/// <summary>
/// The entry point of the typed client: a store over a RavenLite server (<see cref="ForServer"/>) or, with the
/// RavenLite.Client.Embedded package, over an embedded database (<c>RavenStore.OpenEmbedded</c>), from which <see cref="OpenSession"/> gives units of work with the same API either way. Thread-safe and
/// meant to live as long as the application; sessions are short-lived and used by one thread at a time.
/// </summary>
/// <remarks>
/// Named <c>RavenStore</c> because the storage layer's <c>RavenLite.Storage.Documents.DocumentStore</c> is the
/// BSON document table underneath; this is the object-level store applications use.
/// </remarks>
public sealed class RavenStore : IDisposable
{
    private readonly ConcurrentDictionary<Type, PropertyInfo?> _identities = new();
    private int _disposed;

    private RavenStore(IStoreBackend backend, StoreConventions? conventions)
    {
        Conventions = conventions ?? new StoreConventions();
        try
        {
            Conventions.Validate();
        }
        catch
        {
            backend.Dispose();
            throw;
        }
        Backend = backend;
        Serializer = new EntitySerializer(Conventions.SerializerSettings);
        Ids = new IdGenerator(backend, Conventions.IdBlockSize);
        UncachedBackend = backend is RemoteBackend remote ? remote.WithoutResponseCache() : backend;
        Entities = new EntityMaterializer(this, new EntityCache(Conventions.EntityCache, backend.ToString() ?? backend.GetType().Name));
    }

    /// <summary>The conventions the store was created with.</summary>
    public StoreConventions Conventions { get; }

    /// <summary>Where the documents live: the server, or the embedded database.</summary>
    public IStoreBackend Backend { get; }

    internal EntitySerializer Serializer { get; }

    /// <summary>Translates C# conditions for typed fields; one per store, so what it learns of member names is shared.</summary>
    internal Querying.TypedTranslator Translator => _translator ??= new Querying.TypedTranslator(Serializer);

    private Querying.TypedTranslator? _translator;

    internal IdGenerator Ids { get; }

    /// <summary>The auto map/reduce indexes (LINQ GroupBy) this store has made or found, so a repeated query does not put the definition again.</summary>
    internal System.Collections.Concurrent.ConcurrentDictionary<string, bool> AutoReduceIndexes { get; } = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>GroupBy translations by shape (see <see cref="DocumentSession.TranslateGroupBy"/>), so a repeated grouped query is not translated and compiled again.</summary>
    internal System.Collections.Concurrent.ConcurrentDictionary<(Type Source, Type Result, string Key, string Selector), Querying.GroupByTranslator.Translation?> GroupByTranslations { get; } = new();

    /// <summary>The compiled key and selector of each GroupBy shape grouped in the client (see DocumentSession.CompileGrouping).</summary>
    internal System.Collections.Concurrent.ConcurrentDictionary<(Type Source, Type Result, string Key, string Selector), (Delegate Key, Delegate Selector)> GroupingDelegates { get; } = new();

    /// <summary>The backend for sessions that do not revalidate (<see cref="DocumentSession.UseHttpCache"/> false).</summary>
    internal IStoreBackend UncachedBackend { get; }

    internal EntityMaterializer Entities { get; }

    /// <summary>
    /// A store over <paramref name="backend"/>; disposing the store disposes it. For backends other than the server's
    /// (the embedded package's <c>RavenStore.OpenEmbedded</c> is one).
    /// </summary>
    public static RavenStore ForBackend(IStoreBackend backend, StoreConventions? conventions = null)
    {
        ArgumentNullException.ThrowIfNull(backend);
        return new RavenStore(backend, conventions);
    }

    /// <summary>
    /// A store over a RavenLite server (<c>http://127.0.0.1:8080/</c>), through one <see cref="HttpClient"/>.
    /// Nothing is sent until a session asks.
    /// </summary>
    /// <param name="serverUrl">The server's base address.</param>
    /// <param name="conventions">The conventions; null for the defaults.</param>
    /// <param name="requestTimeout">How long one request may take (default 100 s); past it, a <see cref="TimeoutException"/>.</param>
    /// <param name="apiKey">Sent as <c>X-Api-Key</c>, for a server that listens beyond loopback.</param>
    /// <param name="handler">The HTTP handler to send through (tests, proxies); the store does not dispose it.</param>
    public static RavenStore ForServer(Uri serverUrl, StoreConventions? conventions = null, TimeSpan? requestTimeout = null,
        string? apiKey = null, HttpMessageHandler? handler = null)
    {
        ArgumentNullException.ThrowIfNull(serverUrl);
        if (!serverUrl.IsAbsoluteUri || (serverUrl.Scheme != Uri.UriSchemeHttp && serverUrl.Scheme != Uri.UriSchemeHttps))
            throw new ArgumentException($"The server URL must be an absolute http or https address; got '{serverUrl}'.", nameof(serverUrl));
        // A base address without a trailing slash would drop its last segment from every relative route.
        var baseUrl = serverUrl.AbsoluteUri.EndsWith('/') ? serverUrl : new Uri(serverUrl.AbsoluteUri + "/");
        var options = new RemoteOptions(requestTimeout ?? TimeSpan.FromSeconds(100), apiKey, handler,
            Math.Max(0, (conventions ?? new StoreConventions()).EntityCache?.MaxResponseBytes ?? 0));
        return new RavenStore(new RemoteBackend(baseUrl, options), conventions);
    }

    /// <summary>
    /// The database's changes after <paramref name="fromEtag"/> (0: from the beginning) that pass
    /// <paramref name="filter"/> (default: every change): history first, then live, each document change once in etag
    /// order, whether the store is embedded or remote (a remote feed reconnects by itself, resuming where it was).
    /// </summary>
    /// <example>
    /// <code>
    /// await foreach (var change in store.Changes(new ChangesFilter { Prefixes = ["orders/"] }, cancellationToken: token))
    ///     Console.WriteLine($"{change.Kind} {change.Key}");
    /// </code>
    /// </example>
    public IAsyncEnumerable<DatabaseChange> Changes(ChangesFilter? filter = null, long fromEtag = 0, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(fromEtag);
        return Backend.Changes(fromEtag, filter ?? ChangesFilter.All, cancellationToken);
    }

    /// <summary>Patch and delete by query, as operations over many documents that run on the database.</summary>
    public StoreOperations Operations => new(Backend);

    /// <summary>A new unit of work: an identity map, change tracking and one atomic <see cref="DocumentSession.SaveChanges"/>.</summary>
    public DocumentSession OpenSession()
    {
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        return new DocumentSession(this);
    }

    /// <summary>
    /// A bulk insert: <see cref="BulkInsertOperation.Store(object)"/> many new entities, written in batches of
    /// <paramref name="batchSize"/>, each in one transaction; dispose it to write the last batch.
    /// </summary>
    /// <param name="batchSize">Documents per transaction.</param>
    /// <param name="cancellationToken">Stops the insert: the batch being gathered is not written, earlier ones stay.</param>
    public BulkInsertOperation BulkInsert(int batchSize = 1000, CancellationToken cancellationToken = default)
    {
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        return new BulkInsertOperation(this, batchSize, cancellationToken);
    }

    /// <summary>The identity property of <paramref name="type"/> (a readable, writable string property), or null.</summary>
    internal PropertyInfo? IdentityOf(Type type) => _identities.GetOrAdd(type, static (t, name) =>
        t.GetProperty(name, BindingFlags.Public | BindingFlags.Instance) is { CanRead: true, CanWrite: true } p && p.PropertyType == typeof(string)
            ? p
            : null, Conventions.IdentityPropertyName);

    /// <summary>
    /// Sets <paramref name="id"/> on the entity's identity property. A read-only type's instance that already has an id
    /// keeps it (it may be the one instance every session shares): a different <paramref name="id"/> is refused.
    /// </summary>
    /// <exception cref="ArgumentException">A read-only entity that already has another id.</exception>
    internal void AssignId(object entity, string id)
    {
        if (IdentityOf(entity.GetType()) is not { } identity)
            return;
        if (Entities.CopierFor(entity.GetType()) is { SharesInstances: true } && identity.GetValue(entity) is string { Length: > 0 } current)
        {
            if (!string.Equals(current, id, StringComparison.Ordinal))
                throw new ArgumentException(
                    $"The {entity.GetType()} has the id '{current}' and is read-only, so it cannot be stored as '{id}': make a copy with that id (`with {{ {identity.Name} = ... }}`).",
                    nameof(id));
            return;
        }
        identity.SetValue(entity, id);
    }

    /// <summary>Closes the embedded database (when the store opened it) or the HTTP client. Safe to call more than once.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        try
        {
            Backend.Dispose();
        }
        finally
        {
            Entities.Cache.Dispose();
        }
    }

    /// <summary>Creates or updates the index <paramref name="index"/> defines (rebuilt when its definition changed).</summary>
    /// <returns>True when it was created or changed; false when the same definition was already there.</returns>
    /// <exception cref="ArgumentException">The definition is not valid (a member that cannot be indexed, a bad name).</exception>
    public bool ExecuteIndex<T>(RavenIndex<T> index) where T : class
    {
        ArgumentNullException.ThrowIfNull(index);
        IRavenIndex deployed = index;
        return Backend.PutIndex(deployed.IndexName, deployed.ToDefinitionJson(Serializer, Conventions));
    }

    /// <summary>Creates or updates every index class of <paramref name="assembly"/> (non-abstract, with a parameterless constructor).</summary>
    /// <returns>How many were created or changed.</returns>
    public int ExecuteIndexes(Assembly assembly)
    {
        ArgumentNullException.ThrowIfNull(assembly);
        var changed = 0;
        foreach (var type in assembly.GetTypes())
        {
            if (type.IsAbstract || !typeof(IRavenIndex).IsAssignableFrom(type) || type.GetConstructor(Type.EmptyTypes) is null)
                continue;
            var index = (IRavenIndex)Activator.CreateInstance(type)!;
            if (Backend.PutIndex(index.IndexName, index.ToDefinitionJson(Serializer, Conventions)))
                changed++;
        }
        return changed;
    }
}
