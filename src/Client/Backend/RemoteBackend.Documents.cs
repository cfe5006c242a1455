using System.Globalization;
using System.Text.Json;

namespace RavenLite.Client.Backend;

internal sealed partial class RemoteBackend
{
    public IReadOnlyList<StoredDocument?> Load(IReadOnlyList<string> keys) => Run(GetRequest(keys), ParseDocuments);

    public Task<IReadOnlyList<StoredDocument?>> LoadAsync(IReadOnlyList<string> keys, CancellationToken cancellationToken) =>
        RunAsync(GetRequest(keys), ParseDocuments, cancellationToken);

    public IReadOnlyList<long?> Batch(IReadOnlyList<WriteCommand> commands) => Run(BatchRequest(commands), ParseEtags);

    public Task<IReadOnlyList<long?>> BatchAsync(IReadOnlyList<WriteCommand> commands, CancellationToken cancellationToken) =>
        RunAsync(BatchRequest(commands), ParseEtags, cancellationToken);

    public Task<DocumentPage> GetDocumentsAsync(int start, int pageSize, CancellationToken cancellationToken) =>
        RunAsync(new RemoteRequest(HttpMethod.Get, string.Create(CultureInfo.InvariantCulture, $"docs?start={start}&pageSize={pageSize}"),
            Body: null, error => RemoteErrors.ToException(error)), ParseDocumentPage, cancellationToken);

    public bool PutIndex(string name, string definitionJson) => (bool)Run<object>(PutIndexRequest(name, definitionJson), ParseChanged);

    public async Task<bool> PutIndexAsync(string name, string definitionJson, CancellationToken cancellationToken) =>
        (bool)await RunAsync<object>(PutIndexRequest(name, definitionJson), ParseChanged, cancellationToken).ConfigureAwait(false);

    private static RemoteRequest PutIndexRequest(string name, string definitionJson) =>
        new(HttpMethod.Put, "indexes/" + string.Join('/', name.Split('/').Select(Uri.EscapeDataString)),
            System.Text.Encoding.UTF8.GetBytes(definitionJson), error => RemoteErrors.ToException(error, name));

    private static object ParseChanged(JsonElement root) =>
        root.EnumerateObject().FirstOrDefault(p => p.NameEquals("Changed") || p.NameEquals("changed")).Value.ValueKind == JsonValueKind.True;

    /// <summary><c>POST /queries</c> with the keys.</summary>
    private static RemoteRequest GetRequest(IReadOnlyList<string> keys)
    {
        var body = WriteJson(json =>
        {
            json.WriteStartArray();
            foreach (var key in keys)
                json.WriteStringValue(key);
            json.WriteEndArray();
        });
        // Keys have no control characters (DocumentKey.Validate), so a line per key names the request unambiguously.
        return new RemoteRequest(HttpMethod.Post, "queries", body, error => RemoteErrors.ToException(error), CacheKey: "POST queries\n" + string.Join('\n', keys));
    }

    private static IReadOnlyList<StoredDocument?> ParseDocuments(JsonElement root)
    {
        var results = root.GetProperty("Results");
        var documents = new StoredDocument?[results.GetArrayLength()];
        var i = 0;
        foreach (var element in results.EnumerateArray())
            documents[i++] = element.ValueKind == JsonValueKind.Null ? null : RemoteDocuments.Read(element);
        return documents;
    }

    /// <summary><c>GET /docs</c>'s <c>{"PageSize", "TotalResults", "Results": [...]}</c>.</summary>
    private static DocumentPage ParseDocumentPage(JsonElement root)
    {
        var results = root.GetProperty("Results");
        var documents = new StoredDocument[results.GetArrayLength()];
        var i = 0;
        foreach (var element in results.EnumerateArray())
            documents[i++] = RemoteDocuments.Read(element);
        return new DocumentPage(documents, root.GetProperty("PageSize").GetInt32(), root.GetProperty("TotalResults").GetInt64());
    }

    /// <summary><c>POST /bulk_docs</c>: the documents' JSON is written into the body as it was serialized.</summary>
    private static RemoteRequest BatchRequest(IReadOnlyList<WriteCommand> commands)
    {
        var body = WriteJson(json =>
        {
            json.WriteStartArray();
            foreach (var command in commands)
            {
                json.WriteStartObject();
                json.WriteString("Method", command.IsDelete ? "DELETE" : command.IsPatch ? "PATCH" : "PUT");
                json.WriteString("Key", command.Key);
                if (command.PatchJson is { } patch)
                {
                    json.WritePropertyName("Patch");
                    json.WriteRawValue(patch, skipInputValidation: true);
                }
                else if (!command.IsDelete)
                {
                    json.WritePropertyName("Document");
                    json.WriteRawValue(command.Data, skipInputValidation: true);
                    json.WritePropertyName("Metadata");
                    json.WriteRawValue(command.Metadata!, skipInputValidation: true);
                }
                if (command.ExpectedEtag is { } etag)
                    json.WriteNumber("Etag", etag);
                json.WriteEndObject();
            }
            json.WriteEndArray();
        });
        return new RemoteRequest(HttpMethod.Post, "bulk_docs", body, error => RemoteErrors.ToException(error));
    }

    private static IReadOnlyList<long?> ParseEtags(JsonElement root)
    {
        var etags = new long?[root.GetArrayLength()];
        var i = 0;
        foreach (var result in root.EnumerateArray())
        {
            var etag = result.GetProperty("Etag");
            etags[i++] = etag.ValueKind == JsonValueKind.Null ? null : long.Parse(etag.GetString()!, CultureInfo.InvariantCulture);
        }
        return etags;
    }

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
