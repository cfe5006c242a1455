using System.Text.Json.Serialization;

namespace RavenLite;

/// <summary>What a set operation does to each matching document.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<SetOperationKind>))]
public enum SetOperationKind
{
    /// <summary>Patch by query: a JSON Patch (with increments) applied to each.</summary>
    Patch,

    /// <summary>Delete by query.</summary>
    Delete,
}

/// <summary>Where a set operation is.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<SetOperationState>))]
public enum SetOperationState
{
    /// <summary>Still changing documents.</summary>
    Running,

    /// <summary>Every matching document was processed (some may be in <see cref="SetOperationStatus.Failures"/>).</summary>
    Completed,

    /// <summary>Stopped at the first document the patch refused (<c>StopOnFailure</c>).</summary>
    Stopped,

    /// <summary>Cancelled between two batches: the batches before were committed, the rest not started.</summary>
    Cancelled,

    /// <summary>A batch failed as a whole (a full disk, the database closing): it changed nothing; earlier ones were committed.</summary>
    Failed,
}

/// <summary>A document a patch by query left as it was, and why.</summary>
/// <param name="Key">The document.</param>
/// <param name="Error">Why the patch refused it (the <c>test</c> that failed, the path that did not fit).</param>
public sealed record SetOperationFailure(string Key, string Error);

/// <summary>A set operation's progress and outcome: a snapshot, taken when asked for.</summary>
/// <param name="Id">The operation's id, unique while the database is open.</param>
/// <param name="Kind">Patch or delete.</param>
/// <param name="IndexName">The index that answered the query.</param>
/// <param name="Query">The query (null: every document of the index).</param>
/// <param name="State">Running, or how it ended.</param>
/// <param name="Matched">How many documents the index matched when the operation started: the set it works through.</param>
/// <param name="Processed">How many of them were handled in committed batches (changed, already gone, or refused).</param>
/// <param name="Changed">How many were patched or deleted.</param>
/// <param name="FailedCount">How many the patch refused (each left as it was).</param>
/// <param name="Failures">The first 100 of those, with why.</param>
/// <param name="StartedAt">When it started.</param>
/// <param name="FinishedAt">When it finished; null while running.</param>
/// <param name="Error">Why it failed (<see cref="SetOperationState.Failed"/>) or stopped.</param>
public sealed record SetOperationStatus(
    long Id, SetOperationKind Kind, string IndexName, string? Query, SetOperationState State,
    int Matched, int Processed, int Changed, int FailedCount, IReadOnlyList<SetOperationFailure> Failures,
    DateTimeOffset StartedAt, DateTimeOffset? FinishedAt, string? Error)
{
    /// <summary>The most failures a status lists (all are counted in <see cref="FailedCount"/>).</summary>
    public const int MaxListedFailures = 100;
}
