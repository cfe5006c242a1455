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
public sealed partial class Document
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
}
