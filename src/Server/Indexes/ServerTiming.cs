using System.Globalization;
using RavenLite.Indexing;

namespace RavenLite.Server.Indexes;

/// <summary>
/// The <c>Server-Timing</c> header of a query response (W3C Server Timing: <c>name;dur=milliseconds;desc="..."</c>,
/// comma-separated), so browser developer tools show where the time went. It holds what is known when the headers
/// go out: for a body sent in one write, everything up to the first byte (writing the body into memory included).
/// </summary>
internal static class ServerTiming
{
    /// <summary>The header's name.</summary>
    public const string HeaderName = "Server-Timing";

    /// <summary>
    /// A query that ran: <c>cache;desc=miss, wait, parse, search, load (with the document counts), storage, query,
    /// write</c> (omitted when <paramref name="writeTicks"/> is null: the body was streamed) and <c>total</c>.
    /// </summary>
    public static string Ran(QueryTimings timings, long? writeTicks, long totalTicks)
    {
        var write = writeTicks is { } ticks ? string.Create(CultureInfo.InvariantCulture, $", write;dur={Milliseconds(ticks):0.###}") : "";
        return string.Create(CultureInfo.InvariantCulture,
            $"cache;desc=miss, wait;dur={timings.WaitMicroseconds / 1000:0.###}, parse;dur={timings.ParseMicroseconds / 1000:0.###}, " +
            $"search;dur={timings.SearchMicroseconds / 1000:0.###}, " +
            $"load;dur={timings.LoadMicroseconds / 1000:0.###};desc=\"{timings.CachedDocuments} cached / {timings.StorageDocuments} from storage\", " +
            $"storage;dur={timings.StorageMicroseconds / 1000:0.###}, query;dur={timings.TotalMicroseconds / 1000:0.###}{write}, " +
            $"total;dur={Milliseconds(totalTicks):0.###}");
    }

    /// <summary>A response served from the <see cref="QueryResponseCache"/>: <c>cache;desc=hit, total;dur=...</c>.</summary>
    public static string Hit(long totalTicks) =>
        string.Create(CultureInfo.InvariantCulture, $"cache;desc=hit, total;dur={Milliseconds(totalTicks):0.###}");

    private static double Milliseconds(long ticks) => QueryTimings.ToMicroseconds(ticks) / 1000;
}
