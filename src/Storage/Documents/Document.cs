using System.Text.Json;
using Newtonsoft.Json.Linq;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Caching;

namespace RavenLite.Storage.Documents;

/// <summary>
/// A stored document as read: immutable, so one instance can be shared by every reader (and cached).
/// Read it through <see cref="Data"/> (a read-only <see cref="JsonElement"/>), write it out through
/// <see cref="DataJson"/> (UTF-8 JSON bytes), or take a private, changeable copy with
/// <see cref="ToJObject"/>.
/// </summary>
public sealed class Document
{
    /// <summary>
    /// How deep <see cref="Data"/> and <see cref="Metadata"/> (and so the copies) may nest. Above the 128 levels
    /// a write accepts, so everything stored can be read back.
    /// </summary>
    internal const int MaxReadDepth = 1000;

    private static readonly JsonDocumentOptions s_parseOptions = new() { MaxDepth = MaxReadDepth };

    private readonly byte[] _json;
    private readonly int _metadataLength;
    private JsonDocument? _data;
    private JsonDocument? _metadata;

    internal Document(string key, long etag, DateTimeOffset lastModified, string? entityName,
        byte[] json, int metadataLength, int metadataTokens, int dataTokens)
    {
        Key = key;
        Etag = etag;
        LastModified = lastModified;
        EntityName = entityName;
        _json = json;
        _metadataLength = metadataLength;
        _metadataTokens = metadataTokens;
        _dataTokens = dataTokens;
    }

    /// <summary>
    /// A document that is not stored: a map/reduce index's result for one group, handed out as query results are.
    /// </summary>
    internal static Document FromJson(string key, long etag, DateTimeOffset lastModified, ReadOnlySpan<byte> metadataJson, ReadOnlySpan<byte> dataJson)
    {
        var json = new byte[metadataJson.Length + dataJson.Length];
        metadataJson.CopyTo(json);
        dataJson.CopyTo(json.AsSpan(metadataJson.Length));
        return new Document(key, etag, lastModified, null, json, metadataJson.Length, 1, 1);
    }

    /// <summary>The key with its original casing.</summary>
    public string Key { get; }

    /// <summary>The etag of the write that produced this version; strictly increasing per database.</summary>
    public long Etag { get; }

    /// <summary>When this version was written (UTC).</summary>
    public DateTimeOffset LastModified { get; }

    /// <summary>The metadata's <c>Raven-Entity-Name</c>, when it has a string one.</summary>
    public string? EntityName { get; }

    /// <summary>The data as UTF-8 JSON, produced once and shared; write it out as it is.</summary>
    public ReadOnlyMemory<byte> DataJson => _json.AsMemory(_metadataLength);

    /// <summary>The metadata as UTF-8 JSON (what was stored; <see cref="LastModified"/> is kept apart).</summary>
    public ReadOnlyMemory<byte> MetadataJson => _json.AsMemory(0, _metadataLength);

    /// <summary>The data, read-only. Parsed on first use and then shared.</summary>
    public JsonElement Data => Parse(ref _data, DataJson);

    /// <summary>The metadata, read-only. Parsed on first use and then shared.</summary>
    public JsonElement Metadata => Parse(ref _metadata, MetadataJson);

    /// <summary>
    /// A new, private copy of the data that the caller may change freely, built from the shared parsed form
    /// (<see cref="Data"/>) without parsing text again. Date-like strings stay strings.
    /// </summary>
    public JObject ToJObject() => JsonElementCopy.ToJObject(Data);

    /// <summary>A new, private copy of the metadata that the caller may change freely.</summary>
    public JObject MetadataToJObject() => JsonElementCopy.ToJObject(Metadata);

    /// <inheritdoc />
    public override string ToString() => $"{Key} (etag {Etag})";

    private JsonElement Parse(ref JsonDocument? slot, ReadOnlyMemory<byte> json)
    {
        if (Volatile.Read(ref slot) is { } parsed)
            return parsed.RootElement;
        // A benign race: two threads may both parse; one result wins and both are equal and immutable.
        // The JsonDocument is never disposed: it lives as long as this Document (its pooled buffers go to the GC).
        var mine = JsonDocument.Parse(json, s_parseOptions);
        var winner = Interlocked.CompareExchange(ref slot, mine, null);
        if (winner is not null)
            return winner.RootElement;
        OnParsedFormAdded();
        return mine.RootElement;
    }

    // Header 16 + seven references 56 + etag 8 + DateTimeOffset 16 + three ints 12 = 108, aligned to 8.
    private const int InstanceBytes = 112;

    private readonly int _metadataTokens;
    private readonly int _dataTokens;
    private CacheEntry? _cacheEntry;

    /// <summary>
    /// Bytes this instance keeps alive, for cache accounting: itself, the JSON text, its strings, and each
    /// parsed form and the kept rendering once they exist. Only grows (a form is parsed once), so a cache can charge the difference.
    /// </summary>
    internal long EstimatedSize
    {
        get
        {
            var size = InstanceBytes + ManagedSize.ByteArray(_json.Length)
                + ManagedSize.String(Key.Length) + (EntityName is null ? 0 : ManagedSize.String(EntityName.Length));
            if (Volatile.Read(ref _metadata) is not null)
                size += ManagedSize.ParsedJson(_metadataLength, _metadataTokens);
            if (Volatile.Read(ref _data) is not null)
                size += ManagedSize.ParsedJson(_json.Length - _metadataLength, _dataTokens);
            return size + RenderingSize + DerivedSize;
        }
    }

    /// <summary>Tells this document which cache entry holds it, so a later parse is charged to that cache.</summary>
    /// <remarks>A full fence: either the cache sees a parse that happened first, or the parse sees the entry.</remarks>
    internal void AttachTo(CacheEntry entry) => Interlocked.Exchange(ref _cacheEntry, entry);

    private void OnParsedFormAdded() => Volatile.Read(ref _cacheEntry)?.DocumentGrew();

    private Rendering? _rendering;

    /// <summary>
    /// This version as <paramref name="renderer"/> writes it, made on first use and kept with the document (and charged
    /// to the cache holding it), so every later read of the cached version copies the bytes instead of writing them
    /// again. One renderer's form is kept; another renderer's is made every time.
    /// </summary>
    public ReadOnlyMemory<byte> RenderWith(IDocumentRenderer renderer)
    {
        ArgumentNullException.ThrowIfNull(renderer);
        if (Volatile.Read(ref _rendering) is { } kept)
        {
            if (ReferenceEquals(kept.Renderer, renderer))
                return kept.Bytes;
            return renderer.Render(this);
        }
        var mine = new Rendering(renderer, renderer.Render(this));
        var winner = Interlocked.CompareExchange(ref _rendering, mine, null);
        if (winner is not null)
            return ReferenceEquals(winner.Renderer, renderer) ? winner.Bytes : mine.Bytes;
        OnParsedFormAdded();
        return mine.Bytes;
    }

    private long RenderingSize => Volatile.Read(ref _rendering) is { } rendering ? RenderingInstanceBytes + ManagedSize.ByteArray(rendering.Bytes.Length) : 0;

    // Header 16 + two references 16.
    private const int RenderingInstanceBytes = 32;

    private sealed record Rendering(IDocumentRenderer Renderer, byte[] Bytes);

    private Derivation? _derived;

    /// <summary>
    /// What <paramref name="owner"/> makes of this version (<paramref name="create"/>, on first use), kept with the
    /// document and charged to the cache holding it at <paramref name="estimatedBytes"/>, so a warm read that finds the
    /// document finds it too, with no cache of its own (the typed client keeps its view of the document and the entity
    /// it read from it here). A document is immutable, so what is made of one version stays right for it. One owner's
    /// value is kept; another owner's is made every time, as <see cref="RenderWith"/> does.
    /// </summary>
    public T Derive<T>(object owner, Func<Document, T> create, long estimatedBytes) where T : class
    {
        ArgumentNullException.ThrowIfNull(owner);
        ArgumentNullException.ThrowIfNull(create);
        if (Volatile.Read(ref _derived) is { } kept)
            return ReferenceEquals(kept.Owner, owner) ? (T)kept.Value : create(this);
        var mine = new Derivation(owner, create(this), Math.Max(0, estimatedBytes));
        var winner = Interlocked.CompareExchange(ref _derived, mine, null);
        if (winner is not null)
            return ReferenceEquals(winner.Owner, owner) ? (T)winner.Value : (T)mine.Value;
        OnParsedFormAdded();
        return (T)mine.Value;
    }

    // Header 16 + two references 16 + a long 8.
    private long DerivedSize => Volatile.Read(ref _derived) is { } derived ? 40 + derived.Bytes : 0;

    private sealed record Derivation(object Owner, object Value, long Bytes);
}
