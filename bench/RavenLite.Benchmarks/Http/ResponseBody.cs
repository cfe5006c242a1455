namespace RavenLite.Benchmarks.Http;

/// <summary>
/// Reads a whole response body into one buffer kept for the benchmark and returns its length. <c>GetByteArrayAsync</c>
/// gave every 700 KB page a new large-object array, and the full collections they set off were half of what the
/// server rows measured (the same garbage in every row, landing in whichever code was running): reading into a kept
/// buffer leaves the server's own work to compare.
/// </summary>
internal sealed class ResponseBody
{
    private readonly byte[] _buffer = new byte[64 * 1024];

    /// <summary>GETs <paramref name="path"/>, reads every byte of the body, and returns how many there were.</summary>
    public async Task<int> ReadAsync(HttpClient client, string path)
    {
        using var response = await client.GetAsync(path, HttpCompletionOption.ResponseHeadersRead);
        response.EnsureSuccessStatusCode();
        await using var stream = await response.Content.ReadAsStreamAsync();
        var length = 0;
        int read;
        while ((read = await stream.ReadAsync(_buffer)) > 0)
            length += read;
        return length;
    }
}
