using System.Buffers;
using System.Net.Http.Headers;
using System.Runtime.CompilerServices;
using System.Text.Json;
using RavenLite.Server.Json;
using RavenLite.Server.Security;

namespace RavenLite.Server.Tools;

/// <summary>Export and import against a running server: <c>GET /docs</c> pages and <c>POST /bulk_docs</c> batches.</summary>
internal sealed class HttpEndpoint : IDocumentSource, IDocumentTarget, IDisposable
{
    private readonly HttpClient _client;
    private long? _total;

    public HttpEndpoint(Uri url, string? apiKey)
    {
        _client = new HttpClient { BaseAddress = url, Timeout = TimeSpan.FromMinutes(5) };
        if (apiKey is not null)
            _client.DefaultRequestHeaders.Add(ApiKeyMiddleware.HeaderName, apiKey);
    }

    public long? Total => _total;

    /// <summary>
    /// <c>GET /docs</c> pages newest first, so the pages are read from the oldest end backwards and each is reversed:
    /// the file is in etag order. Writes made to the server while it runs may be missed or seen twice.
    /// </summary>
    public async IAsyncEnumerable<IReadOnlyList<TransferDocument>> ReadAsync([EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using (var first = await GetPageAsync(0, 0, cancellationToken))
            _total = first.RootElement.GetProperty("TotalResults").GetInt64();
        var end = _total.Value;
        while (end > 0)
        {
            var start = Math.Max(0, end - TransferOptions.BatchSize);
            var size = (int)(end - start);
            using var page = await GetPageAsync(start, size, cancellationToken);
            if (page.RootElement.GetProperty("PageSize").GetInt32() < size)
                throw new TransferException($"The server returns at most {page.RootElement.GetProperty("PageSize").GetInt32()} documents a page; export needs {TransferOptions.BatchSize}.");
            var results = page.RootElement.GetProperty("Results").EnumerateArray().Select(Split).ToList();
            results.Reverse();
            yield return results;
            end = start;
        }
    }

    public async Task WriteAsync(IReadOnlyList<TransferDocument> batch, CancellationToken cancellationToken)
    {
        var body = new ArrayBufferWriter<byte>();
        using (var json = new Utf8JsonWriter(body, JsonOutput.WriterOptions))
        {
            json.WriteStartArray();
            foreach (var document in batch)
            {
                json.WriteStartObject();
                json.WriteString("Method", "PUT");
                json.WriteString("Key", document.Key);
                json.WritePropertyName("Document");
                json.WriteRawValue(document.DataJson.Span, skipInputValidation: true);
                json.WritePropertyName("Metadata");
                json.WriteRawValue(document.MetadataJson.Span, skipInputValidation: true);
                json.WriteEndObject();
            }
            json.WriteEndArray();
        }
        using var content = new ReadOnlyMemoryContent(body.WrittenMemory);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        using var response = await SendAsync(() => _client.PostAsync("bulk_docs", content, cancellationToken));
        await EnsureSuccessAsync(response, cancellationToken);
    }

    private async Task<JsonDocument> GetPageAsync(long start, int pageSize, CancellationToken cancellationToken)
    {
        using var response = await SendAsync(() => _client.GetAsync($"docs?start={start}&pageSize={pageSize}", cancellationToken));
        await EnsureSuccessAsync(response, cancellationToken);
        return await JsonDocument.ParseAsync(await response.Content.ReadAsStreamAsync(cancellationToken), default, cancellationToken);
    }

    private async Task<HttpResponseMessage> SendAsync(Func<Task<HttpResponseMessage>> send)
    {
        try
        {
            return await send();
        }
        catch (HttpRequestException ex)
        {
            throw new TransferException($"Cannot reach {_client.BaseAddress}: {ex.Message}", ex);
        }
    }

    private static async Task EnsureSuccessAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        if (response.IsSuccessStatusCode)
            return;
        var text = await response.Content.ReadAsStringAsync(cancellationToken);
        string message;
        try
        {
            using var error = JsonDocument.Parse(text);
            message = error.RootElement.GetProperty("Error").GetString() ?? text;
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException)
        {
            message = text;
        }
        throw new TransferException($"{message} (HTTP {(int)response.StatusCode})");
    }

    /// <summary>A document as <c>GET /docs</c> gives it (data with <c>@metadata</c> inside) split into key, metadata and data.</summary>
    private static TransferDocument Split(JsonElement result)
    {
        var metadata = result.GetProperty("@metadata");
        var key = metadata.GetProperty("@id").GetString()!;
        return new TransferDocument(key,
            Write(metadata.EnumerateObject().Where(p => !MetadataNames.IsReserved(p.Name))),
            Write(result.EnumerateObject().Where(p => p.Name != "@metadata")));
    }

    private static byte[] Write(IEnumerable<JsonProperty> properties)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var json = new Utf8JsonWriter(buffer, JsonOutput.WriterOptions))
        {
            json.WriteStartObject();
            foreach (var property in properties)
                property.WriteTo(json);
            json.WriteEndObject();
        }
        return buffer.WrittenSpan.ToArray();
    }

    public void Dispose() => _client.Dispose();
}
