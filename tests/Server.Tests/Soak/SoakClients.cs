using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace RavenLite.Server.Tests.Soak;

/// <summary>The writer and reader loops of a soak run, each on its own connection.</summary>
#pragma warning disable CA5394 // test data, not security
internal sealed class SoakClients(Uri address, SoakModel model, SoakStatistics statistics)
{
    public const int KeysPerWriter = 200;

    public static HttpClient NewClient(Uri address) =>
        new(new SocketsHttpHandler { MaxConnectionsPerServer = 1 }) { BaseAddress = address, Timeout = TimeSpan.FromSeconds(60) };

    public async Task WriteAsync(int writer, DateTime until)
    {
        using var client = NewClient(address);
        var random = new Random(1000 + writer);
        long version = 0;
        while (DateTime.UtcNow < until)
        {
            var roll = random.Next(10);
            if (roll < 6)
            {
                var key = SoakModel.Key(writer, random.Next(KeysPerWriter));
                var tag = SoakModel.Tags[random.Next(SoakModel.Tags.Length)];
                var request = new HttpRequestMessage(HttpMethod.Put, "/docs/" + key) { Content = Json(Document(++version, writer, tag, random)) };
                request.Headers.Add("Raven-Entity-Name", tag);
                if (await SendAsync(client, request, $"PUT {key}", HttpStatusCode.Created) is not null)
                    model.Put(writer, key, version, tag);
            }
            else if (roll < 8)
            {
                var key = SoakModel.Key(writer, random.Next(KeysPerWriter));
                if (await SendAsync(client, new HttpRequestMessage(HttpMethod.Delete, "/docs/" + key), $"DELETE {key}", HttpStatusCode.NoContent) is not null)
                    model.Delete(writer, key);
            }
            else
            {
                await BulkAsync(client, writer, random, () => ++version);
            }
        }
    }

    private async Task BulkAsync(HttpClient client, int writer, Random random, Func<long> nextVersion)
    {
        var commands = new List<(string Key, long Version, string? Tag)>();
        var body = new StringBuilder("[");
        var keys = Enumerable.Range(0, KeysPerWriter).OrderBy(_ => random.Next()).Take(random.Next(2, 20));
        foreach (var slot in keys)
        {
            var key = SoakModel.Key(writer, slot);
            if (commands.Count > 0)
                body.Append(',');
            if (random.Next(4) == 0)
            {
                commands.Add((key, 0, null));
                body.Append(CultureInfo.InvariantCulture, $"{{\"Method\":\"DELETE\",\"Key\":\"{key}\"}}");
            }
            else
            {
                var version = nextVersion();
                var tag = SoakModel.Tags[random.Next(SoakModel.Tags.Length)];
                commands.Add((key, version, tag));
                body.Append(CultureInfo.InvariantCulture, $"{{\"Method\":\"PUT\",\"Key\":\"{key}\",\"Document\":{Document(version, writer, tag, random)},\"Metadata\":{{\"Raven-Entity-Name\":\"{tag}\"}}}}");
            }
        }
        body.Append(']');
        var request = new HttpRequestMessage(HttpMethod.Post, "/bulk_docs") { Content = Json(body.ToString()) };
        if (await SendAsync(client, request, "POST /bulk_docs", HttpStatusCode.OK) is null)
            return;
        foreach (var (key, version, tag) in commands)
        {
            if (tag is null)
                model.Delete(writer, key);
            else
                model.Put(writer, key, version, tag);
        }
    }

    public async Task ReadAsync(int reader, int writers, DateTime until)
    {
        using var client = NewClient(address);
        var random = new Random(2000 + reader);
        while (DateTime.UtcNow < until)
        {
            var roll = random.Next(10);
            if (roll < 5)
            {
                var key = SoakModel.Key(random.Next(writers), random.Next(KeysPerWriter));
                await SendAsync(client, new HttpRequestMessage(HttpMethod.Get, "/docs/" + key), $"GET {key}", HttpStatusCode.OK, HttpStatusCode.NotFound);
            }
            else if (roll < 8)
            {
                var tag = SoakModel.Tags[random.Next(SoakModel.Tags.Length)];
                // While writes go on, a result may already be a newer version (loaded after the index matched it),
                // so pages are checked after the run, when the index has caught up.
                await SendAsync(client, new HttpRequestMessage(HttpMethod.Get,
                    $"/indexes/Raven/DocumentsByEntityName?query=Tag:{tag}&pageSize={random.Next(0, 64)}"), $"query {tag}", HttpStatusCode.OK);
            }
            else
            {
                var keys = Enumerable.Range(0, random.Next(1, 30)).Select(_ => SoakModel.Key(random.Next(writers), random.Next(KeysPerWriter)));
                var request = new HttpRequestMessage(HttpMethod.Post, "/queries") { Content = Json(JsonSerializer.Serialize(keys)) };
                await SendAsync(client, request, "POST /queries", HttpStatusCode.OK);
            }
        }
    }

    /// <returns>The body when the status was the first expected one; null otherwise.</returns>
    private async Task<string?> SendAsync(HttpClient client, HttpRequestMessage request, string what, params HttpStatusCode[] expected)
    {
        var clock = Stopwatch.StartNew();
        try
        {
            using var response = await client.SendAsync(request);
            var body = await response.Content.ReadAsStringAsync();
            statistics.Record(clock.Elapsed.TotalMilliseconds, response.StatusCode, $"{what}: {body}", expected.Contains(response.StatusCode));
            return response.StatusCode == expected[0] ? body : null;
        }
        catch (HttpRequestException ex)
        {
            statistics.Fail($"{what}: {ex.Message}");
            return null;
        }
    }

    private static string Document(long version, int writer, string tag, Random random) =>
        $"{{\"v\":{version},\"w\":{writer},\"tag\":\"{tag}\",\"pad\":\"{new string((char)('a' + random.Next(26)), random.Next(0, 400))}\"}}";

    private static StringContent Json(string json) => new(json, new MediaTypeHeaderValue("application/json"));
}
