using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Storage;

/// <summary>
/// What a batch does to one document in one index: replace its entry with <see cref="Entry"/>, or, when that
/// is null (deleted, or no longer covered), remove it.
/// </summary>
internal readonly record struct IndexChange(string Key, IndexEntry? Entry);
