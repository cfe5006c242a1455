using System.Globalization;
using System.Text.Json;

namespace RavenLite.Indexing.Persistence;

/// <summary>
/// What RavenLite keeps in each Lucene commit's user data (<c>IndexWriter.SetCommitData</c>): the format, the
/// definition the index was built for, the build's generation, and the progress (<see cref="IndexState"/>), so a
/// commit's documents and the etag they reach are one atomic unit.
/// </summary>
internal sealed record CommitData(string Definition, Guid Generation, IndexState State)
{
    /// <summary>The layout of the user data and of the Lucene documents; another value means rebuild.</summary>
    /// <remarks>2: key and etag in one sorted doc-values field (<see cref="Extraction.IndexFields.Version"/>).</remarks>
    /// <remarks>4: <see cref="Extraction.TypedValues.All"/> doc values of many-valued typed fields, for facets.</remarks>
    /// <remarks>5: numeric fields' trie terms of <see cref="Extraction.NumericTerms.PrecisionStep"/> bits (Lucene's default was 4).</remarks>
    /// <remarks>6: the <see cref="Extraction.IndexFields.LongValues"/> mark of documents holding values longer than a term keeps.</remarks>
    /// <remarks>7: <see cref="Extraction.TypedValues.Decimal"/> terms only for numbers a decimal holds exactly (a tiny double's rounded decimal was indexed); <see cref="Extraction.TypedValues.IgnoreCase"/> terms folded by <see cref="Extraction.OrdinalCaseFolding"/>, not the machine's ICU.</remarks>
    /// <remarks>8: <see cref="Extraction.TypedValues.Collated"/> sort keys of typed fields' strings.</remarks>
    /// <remarks>9: no key term; a replaced version is deleted by its etag (<see cref="IndexedVersionsFilter"/>), which storage records from its schema version 2.</remarks>
    public const string CurrentFormat = "ravenlite-lucene-9";

    private const string FormatKey = "ravenlite.format";
    private const string DefinitionKey = "ravenlite.definition";
    private const string GenerationKey = "ravenlite.generation";
    private const string LastEtagKey = "ravenlite.last-indexed-etag";
    private const string IndexedAtKey = "ravenlite.indexed-at";
    private const string ErrorCountKey = "ravenlite.error-count";
    private const string LastErrorKey = "ravenlite.last-error";

    public Dictionary<string, string> ToUserData()
    {
        var data = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            [FormatKey] = CurrentFormat,
            [DefinitionKey] = Definition,
            [GenerationKey] = Generation.ToString("N"),
            [LastEtagKey] = State.LastIndexedEtag.ToString(CultureInfo.InvariantCulture),
            [ErrorCountKey] = State.ErrorCount.ToString(CultureInfo.InvariantCulture),
        };
        if (State.IndexedAt is { } at)
            data[IndexedAtKey] = at.UtcTicks.ToString(CultureInfo.InvariantCulture);
        if (State.LastError is { } error)
            data[LastErrorKey] = JsonSerializer.Serialize(error, IndexingJsonContext.Default.IndexingError);
        return data;
    }

    /// <summary>Reads the user data of a commit; <paramref name="problem"/> says why it cannot be used (null when it can).</summary>
    public static CommitData? FromUserData(IDictionary<string, string>? data, long documentCount, out string? problem)
    {
        problem = null;
        if (data is null || !data.TryGetValue(FormatKey, out var format))
        {
            problem = "its last commit carries no RavenLite progress (it was never completed)";
            return null;
        }
        if (format != CurrentFormat)
        {
            problem = $"it has format '{format}', not '{CurrentFormat}'";
            return null;
        }
        if (!data.TryGetValue(DefinitionKey, out var definition)
            || !data.TryGetValue(GenerationKey, out var generationText) || !Guid.TryParseExact(generationText, "N", out var generation)
            || !TryLong(data, LastEtagKey, out var lastEtag) || !TryLong(data, ErrorCountKey, out var errorCount))
        {
            problem = "its commit data is incomplete";
            return null;
        }
        DateTimeOffset? indexedAt = TryLong(data, IndexedAtKey, out var ticks) ? new DateTimeOffset(ticks, TimeSpan.Zero) : null;
        var lastError = data.TryGetValue(LastErrorKey, out var errorJson)
            ? JsonSerializer.Deserialize(errorJson, IndexingJsonContext.Default.IndexingError)
            : null;
        return new CommitData(definition, generation, new IndexState(lastEtag, documentCount, indexedAt, errorCount, lastError));
    }

    private static bool TryLong(IDictionary<string, string> data, string key, out long value)
    {
        value = 0;
        return data.TryGetValue(key, out var text) && long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out value);
    }
}
