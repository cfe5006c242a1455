using System.Text.Json.Serialization;

namespace RavenLite.Indexing;

/// <summary>Source-generated JSON for what indexes keep about themselves.</summary>
[JsonSerializable(typeof(IndexingError))]
internal sealed partial class IndexingJsonContext : JsonSerializerContext;
