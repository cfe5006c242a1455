using RavenLite.Database;
using RavenLite.Server.Indexes;

namespace RavenLite.Server.Routes;

internal static partial class IndexQueryRoute
{
    /// <summary>
    /// Whether every document in a kept body's <c>Includes</c> still has the etag it was written with. The kept body's
    /// key holds the index version, whose database etag moves with every write on this server; this check makes the
    /// includes' freshness not rest on that: a changed or deleted included document means the page is written again.
    /// </summary>
    private static bool IncludesCurrent(DocumentDatabase database, QueryResponseEntry kept)
    {
        if (kept.Included.Count == 0)
            return true;
        var current = database.Get([.. kept.Included.Select(included => included.Key)]);
        for (var i = 0; i < current.Count; i++)
        {
            if (current[i]?.Etag != kept.Included[i].Etag)
                return false;
        }
        return true;
    }
}
