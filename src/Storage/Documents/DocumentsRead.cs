namespace RavenLite.Storage.Documents;

/// <summary>Documents read by key (null where there is none), and what reading them cost.</summary>
/// <param name="Documents">The documents, in the order of the keys asked for.</param>
/// <param name="FromStorage">How many needed a storage read (the others came from the cache).</param>
/// <param name="StorageTicks">The <see cref="System.Diagnostics.Stopwatch"/> ticks spent in those storage reads.</param>
public readonly record struct DocumentsRead(IReadOnlyList<Document?> Documents, int FromStorage, long StorageTicks);
