using System.Diagnostics;

namespace RavenLite;

/// <summary>
/// Where a query's time went, in microseconds, measured with <see cref="Stopwatch.GetTimestamp"/> (no allocation):
/// waiting for non-stale results, parsing, the index search, and loading the page's documents, of which
/// <see cref="CachedDocuments"/> came from the document cache and <see cref="StorageDocuments"/> needed a storage
/// read (taking <see cref="StorageMicroseconds"/>). Every part is at most <see cref="TotalMicroseconds"/>, and
/// <see cref="CachedDocuments"/> plus <see cref="StorageDocuments"/> is the number of hits on the page
/// (the page's results plus its skipped results).
/// </summary>
public readonly record struct QueryTimings
{
    /// <summary>Timings from <see cref="Stopwatch"/> tick counts.</summary>
    public QueryTimings(long waitTicks, long parseTicks, long searchTicks, long loadTicks, long storageTicks,
        int cachedDocuments, int storageDocuments, long totalTicks)
    {
        WaitMicroseconds = ToMicroseconds(waitTicks);
        ParseMicroseconds = ToMicroseconds(parseTicks);
        SearchMicroseconds = ToMicroseconds(searchTicks);
        LoadMicroseconds = ToMicroseconds(loadTicks);
        StorageMicroseconds = ToMicroseconds(storageTicks);
        CachedDocuments = cachedDocuments;
        StorageDocuments = storageDocuments;
        TotalMicroseconds = ToMicroseconds(totalTicks);
    }

    /// <summary>Time spent waiting for the index to catch up (<see cref="IndexQuery.WaitForNonStaleResults"/>); 0 otherwise.</summary>
    public double WaitMicroseconds { get; }

    /// <summary>Parsing the query text, the sort and the continuation token.</summary>
    public double ParseMicroseconds { get; }

    /// <summary>The Lucene search: the page's keys and etags, and the total.</summary>
    public double SearchMicroseconds { get; }

    /// <summary>Loading the page's documents, from the cache and from storage (<see cref="StorageMicroseconds"/> is part of it).</summary>
    public double LoadMicroseconds { get; }

    /// <summary>The part of <see cref="LoadMicroseconds"/> spent reading documents from storage.</summary>
    public double StorageMicroseconds { get; }

    /// <summary>Documents of the page served from the document cache without a storage lookup.</summary>
    public int CachedDocuments { get; }

    /// <summary>Documents of the page that needed a storage read (the cache was off or missed, or the index was stale).</summary>
    public int StorageDocuments { get; }

    /// <summary>The whole query, from the call to the result.</summary>
    public double TotalMicroseconds { get; }

    /// <summary>Microseconds from a <see cref="Stopwatch"/> tick count.</summary>
    public static double ToMicroseconds(long ticks) => ticks * 1_000_000.0 / Stopwatch.Frequency;
}
