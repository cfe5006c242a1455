using System.IO.Pipelines;
using System.Runtime.InteropServices;
using RavenLite.Database;
using RavenLite.Server.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Tests.Json;

/// <summary>
/// A page of cached documents is a gather of each version's kept rendering: byte for byte what the writer writes for
/// the same documents, for data and metadata of every JSON type.
/// </summary>
public sealed class GatheredPageTests : IDisposable
{
    private static readonly (string Key, string Data, string? Metadata)[] s_documents =
    [
        ("docs/strings", """{"plain":"text","escaped":"q\"uote\\back\nline\t\u0001","unicode":"é日本😀","html":"<a href='x'>&</a>","empty":""}""", null),
        ("docs/numbers", """{"zero":0,"negative":-42,"big":9223372036854775807,"small":-9223372036854775808,"double":1.5,"tiny":1E-300,"huge":1.7976931348623157E+308,"fraction":0.1}""", """{"Raven-Entity-Name":"Number"}"""),
        ("docs/literals", """{"t":true,"f":false,"n":null}""", """{"X-Flag":true,"X-None":null}"""),
        ("docs/containers", """{"array":[1,"two",[3,[4]],{"five":5},null,true],"object":{"nested":{"deeper":{"deepest":[]}}},"emptyObject":{},"emptyArray":[]}""", """{"Raven-Entity-Name":"Box","@id":"ignored","Last-Modified":"ignored","Tags":["a","b"],"Meta":{"x":1}}"""),
        ("docs/empty", "{}", "{}"),
        ("Docs/Ünïcode Key \"quoted\"", """{"a":1}""", """{"Raven-Entity-Name":"Ünïcode"}"""),
    ];

    private readonly string _directory = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));
    private readonly DocumentDatabase _database;

    public GatheredPageTests()
    {
        _database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _directory });
        foreach (var (key, data, metadata) in s_documents)
            _database.Put(key, DocumentContent.FromJson(data), metadata is null ? null : DocumentContent.FromJson(metadata));
    }

    public void Dispose()
    {
        _database.Dispose();
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }

    private IReadOnlyList<Document?> Load() => [.. s_documents.Select(d => _database.Get(d.Key)), null];

    private static async Task<byte[]> WriteAsync(Action<DocumentJsonWriter> write)
    {
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0));
        using (var writer = new DocumentJsonWriter(pipe.Writer))
        {
            write(writer);
            await writer.FlushAsync(CancellationToken.None);
        }
        await pipe.Writer.CompleteAsync();
        using var body = new MemoryStream();
        await pipe.Reader.CopyToAsync(body);
        return body.ToArray();
    }

    /// <summary>What the writer writes for the documents without any kept rendering.</summary>
    private static Task<byte[]> WrittenAsync(IReadOnlyList<Document?> documents) => WriteAsync(writer =>
    {
        for (var i = 0; i < documents.Count; i++)
        {
            if (i > 0)
                writer.Raw(","u8);
            if (documents[i] is { } document)
                writer.Rendered(document);
            else
                writer.Raw("null"u8);
        }
    });

    private static async Task<byte[]> GatheredAsync(IReadOnlyList<Document?> documents)
    {
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0));
        using (var writer = new DocumentJsonWriter(pipe.Writer))
        {
            await writer.DocumentsAsync(documents, CancellationToken.None);
            await writer.FlushAsync(CancellationToken.None);
        }
        await pipe.Writer.CompleteAsync();
        using var body = new MemoryStream();
        await pipe.Reader.CopyToAsync(body);
        return body.ToArray();
    }

    [Fact]
    public async Task A_page_gathered_from_kept_renderings_is_byte_identical_to_the_written_page()
    {
        var documents = Load();
        var expected = await WrittenAsync(documents);

        var first = await GatheredAsync(documents); // renders and keeps
        var again = await GatheredAsync(Load()); // the cached versions: copies of the kept renderings

        Assert.Equal(expected, first);
        Assert.Equal(expected, again);
        using var parsed = System.Text.Json.JsonDocument.Parse("[" + System.Text.Encoding.UTF8.GetString(again) + "]");
        var box = parsed.RootElement[3];
        Assert.Equal("docs/containers", box.GetProperty("@metadata").GetProperty("@id").GetString());
        Assert.Equal(["a", "b"], box.GetProperty("@metadata").GetProperty("Tags").EnumerateArray().Select(e => e.GetString()));
    }

    [Fact]
    public async Task A_held_page_is_sent_byte_identical_and_its_copy_matches()
    {
        // Over 64 KB, so the body goes into the response's memory in more than one span.
        IReadOnlyList<Document?> documents = [.. Enumerable.Repeat(0, 200).SelectMany(_ => Load())];
        var expected = Concat("{\"Results\":["u8.ToArray(), await WrittenAsync(documents), "]}"u8.ToArray());
        Assert.True(expected.Length > 128 * 1024, $"{expected.Length} bytes");
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0));
        using var writer = new DocumentJsonWriter(pipe.Writer, holdBytes: 1024 * 1024);

        writer.Raw("{\"Results\":["u8);
        await writer.DocumentsAsync(documents, CancellationToken.None);
        writer.Raw("]}"u8);

        Assert.False(writer.HasSent);
        Assert.Equal(expected.Length, writer.Length);
        Assert.Equal(expected, writer.Copy(writer.Length));
        Assert.Equal(expected[..40], writer.Copy(40)); // a prefix ending inside the first document
        await writer.FlushAsync(CancellationToken.None);
        Assert.Equal(expected, await ReadAllAsync(pipe));
    }

    [Fact]
    public async Task A_held_page_that_outgrows_the_hold_goes_out_in_order()
    {
        var documents = Load();
        var page = await WrittenAsync(documents);
        var tail = Enumerable.Range(0, 70_000).Select(i => (byte)('a' + i % 26)).ToArray();
        var expected = Concat("["u8.ToArray(), page, "],"u8.ToArray(), tail, tail);
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0));
        var streamed = 0;
        using var writer = new DocumentJsonWriter(pipe.Writer, holdBytes: page.Length + 100, () => streamed++);

        writer.Raw("["u8);
        await writer.DocumentsAsync(documents, CancellationToken.None);
        writer.Raw("],"u8);
        writer.Raw(tail);
        await writer.FlushIfNeededAsync(CancellationToken.None);
        Assert.True(writer.HasSent);
        writer.Raw(tail);
        await writer.FlushAsync(CancellationToken.None);

        Assert.Equal(1, streamed);
        Assert.Equal(expected, await ReadAllAsync(pipe));
    }

    private static byte[] Concat(params byte[][] parts) => [.. parts.SelectMany(part => part)];

    private static async Task<byte[]> ReadAllAsync(Pipe pipe)
    {
        await pipe.Writer.CompleteAsync();
        using var body = new MemoryStream();
        await pipe.Reader.CopyToAsync(body);
        return body.ToArray();
    }

    [Fact]
    public async Task The_cached_version_keeps_its_rendering_and_the_cache_charges_it()
    {
        var document = _database.Get("docs/containers")!;
        var before = _database.GetStatistics().Cache.Bytes;

        var page = await GatheredAsync([document]);

        Assert.Same(document, _database.Get("docs/containers"));
        Assert.True(_database.GetStatistics().Cache.Bytes >= before + page.Length,
            $"cache bytes {before} -> {_database.GetStatistics().Cache.Bytes} for a rendering of {page.Length} bytes");
    }

    [Fact]
    public async Task The_first_renderer_s_form_is_kept_and_another_renderer_s_is_made_every_time()
    {
        var document = _database.Get("docs/strings")!;
        var echo = new EchoRenderer();

        var written = await GatheredAsync([document]);
        var first = document.RenderWith(echo);
        var second = document.RenderWith(echo);

        Assert.Equal(2, echo.Calls);
        Assert.Equal(document.DataJson.ToArray(), first.ToArray());
        Assert.Equal(document.DataJson.ToArray(), second.ToArray());
        Assert.Equal(written, await GatheredAsync([document]));
    }

    [Fact]
    public void A_renderer_s_kept_form_is_the_same_bytes_each_time()
    {
        var document = _database.Get("docs/numbers")!;
        var echo = new EchoRenderer();

        var first = document.RenderWith(echo);
        var second = document.RenderWith(echo);

        Assert.Equal(1, echo.Calls);
        Assert.True(MemoryMarshal.TryGetArray(first, out var a) && MemoryMarshal.TryGetArray(second, out var b) && ReferenceEquals(a.Array, b.Array));
    }

    private sealed class EchoRenderer : IDocumentRenderer
    {
        public int Calls { get; private set; }

        public byte[] Render(Document document)
        {
            Calls++;
            return document.DataJson.ToArray();
        }
    }
}
