using System.Text.Json;
using Newtonsoft.Json.Linq;

namespace RavenLite.Storage.Documents;

/// <summary>
/// A stored document as read: immutable, so one instance can be shared by every reader (and cached).
/// Read it through <see cref="Data"/> (a read-only <see cref="JsonElement"/>), write it out through
/// <see cref="DataJson"/> (UTF-8 JSON bytes), or take a private, changeable copy with
/// <see cref="ToJObject"/>.
/// </summary>
public sealed class Document
{
    private readonly byte[] _json;
    private readonly int _metadataLength;
    private JsonDocument? _data;
    private JsonDocument? _metadata;

    internal Document(string key, long etag, DateTimeOffset lastModified, string? entityName,
        byte[] json, int metadataLength)
    {
        Key = key;
        Etag = etag;
        LastModified = lastModified;
        EntityName = entityName;
        _json = json;
        _metadataLength = metadataLength;
    }

    /// <summary>The key with its original casing.</summary>
    public string Key { get; }

    /// <summary>The etag of the write that produced this version; strictly increasing per database.</summary>
    public long Etag { get; }

    /// <summary>When this version was written (UTC).</summary>
    public DateTimeOffset LastModified { get; }

    /// <summary>The metadata's <c>Raven-Entity-Name</c>, when it has a string one.</summary>
    public string? EntityName { get; }

    /// <summary>The data as UTF-8 JSON, produced once; write it out as it is.</summary>
    public ReadOnlyMemory<byte> DataJson => _json.AsMemory(_metadataLength);

    /// <summary>The metadata as UTF-8 JSON (what was stored; <see cref="LastModified"/> is kept apart).</summary>
    public ReadOnlyMemory<byte> MetadataJson => _json.AsMemory(0, _metadataLength);

    /// <summary>The data, read-only. Parsed on first use and then shared.</summary>
    public JsonElement Data => Parse(ref _data, DataJson);

    /// <summary>The metadata, read-only. Parsed on first use and then shared.</summary>
    public JsonElement Metadata => Parse(ref _metadata, MetadataJson);

    /// <summary>Bytes this instance holds, for cache accounting: JSON text, parsed forms, strings, object headers.</summary>
    internal long EstimatedSize => 160 + 2L * _json.Length + 2L * (Key.Length + (EntityName?.Length ?? 0));

    /// <summary>A new, private copy of the data that the caller may change freely.</summary>
    public JObject ToJObject() => JObject.Parse(System.Text.Encoding.UTF8.GetString(DataJson.Span));

    /// <summary>A new, private copy of the metadata that the caller may change freely.</summary>
    public JObject MetadataToJObject() => JObject.Parse(System.Text.Encoding.UTF8.GetString(MetadataJson.Span));

    /// <inheritdoc />
    public override string ToString() => $"{Key} (etag {Etag})";

    private static JsonElement Parse(ref JsonDocument? slot, ReadOnlyMemory<byte> json)
    {
        // A benign race: two threads may both parse; one result wins and both are equal and immutable.
        // The JsonDocument is never disposed: it lives as long as this Document (its pooled buffers go to the GC).
        var parsed = Volatile.Read(ref slot) ?? Interlocked.CompareExchange(ref slot, JsonDocument.Parse(json), null) ?? slot;
        return parsed!.RootElement;
    }
}
