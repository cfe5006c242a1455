using System.Text.Json;

namespace RavenLite.Client.Backend;

internal sealed partial class RemoteBackend
{
    /// <summary><c>POST /queries?include=...</c>: the documents and their <c>Includes</c> in one round trip.</summary>
    public LoadResult Load(IReadOnlyList<string> keys, IReadOnlyList<string> includePaths)
    {
        var request = GetRequest(keys);
        if (includePaths.Count > 0)
            request = request with { RelativeUrl = "queries?" + string.Join('&', includePaths.Select(path => "include=" + Uri.EscapeDataString(path))) };
        return Run(request, root => new LoadResult(ParseDocuments(root), ParseIncludes(root)));
    }

    /// <summary>A projected page's results: each one's fetched fields as the server wrote them.</summary>
    private static ReadOnlyMemory<byte>[] ParseProjections(JsonElement results)
    {
        var projections = new ReadOnlyMemory<byte>[results.GetArrayLength()];
        var i = 0;
        foreach (var element in results.EnumerateArray())
            projections[i++] = System.Runtime.InteropServices.JsonMarshal.GetRawUtf8Value(element).ToArray();
        return projections;
    }

    private static StoredDocument[] ParseIncludes(JsonElement root)
    {
        if (!root.TryGetProperty("Includes", out var includes))
            return [];
        var documents = new StoredDocument[includes.GetArrayLength()];
        var i = 0;
        foreach (var element in includes.EnumerateArray())
            documents[i++] = RemoteDocuments.Read(element);
        return documents;
    }
}
