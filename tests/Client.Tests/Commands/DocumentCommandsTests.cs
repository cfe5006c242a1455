using System.Text;
using RavenLite.Client.Commands;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Commands;

/// <summary>Raw document commands behave the same over the embedded store and over a server.</summary>
public abstract class DocumentCommandsTests : IAsyncLifetime
{
    private StoreFixture? _fixture;

    private DocumentCommands Commands => new((_fixture ?? throw new InvalidOperationException("Not started.")).Store);

    protected abstract Task<StoreFixture> StartAsync();

    public async Task InitializeAsync() => _fixture = await StartAsync();

    public async Task DisposeAsync()
    {
        if (_fixture is not null)
            await _fixture.DisposeAsync();
    }

    private static DocumentJson Json(string key, string data, string metadata = "{}", long? etag = null) =>
        new(key, Encoding.UTF8.GetBytes(data), Encoding.UTF8.GetBytes(metadata)) { Etag = etag };

    private static string Text(ReadOnlyMemory<byte> json) => Encoding.UTF8.GetString(json.Span);

    [Fact]
    public async Task Put_then_a_page_returns_the_documents_newest_first_with_their_JSON_and_the_total()
    {
        var etags = await Commands.PutAsync([
            Json("notes/1", """{"n":1}""", """{"Raven-Entity-Name":"Notes"}"""),
            Json("notes/2", """{"n":2,"s":"é\"x"}"""),
            Json("notes/3", """{"n":3}"""),
        ]);
        Assert.Equal(3, etags.Count);
        Assert.True(etags[0] < etags[1] && etags[1] < etags[2]);

        var page = await Commands.GetDocumentsAsync(start: 1, pageSize: 5);
        Assert.Equal(3, page.TotalResults);
        Assert.Equal(5, page.PageSize);
        Assert.Equal(["notes/2", "notes/1"], page.Results.Select(d => d.Key));
        Assert.Equal("""{"n":2,"s":"é\"x"}""", Text(page.Results[0].DataJson));
        Assert.Equal(etags[1], page.Results[0].Etag);
        Assert.Equal("""{"Raven-Entity-Name":"Notes"}""", Text(page.Results[1].MetadataJson));
        Assert.Equal("{}", Text(page.Results[0].MetadataJson));
    }

    [Fact]
    public async Task A_page_of_size_0_gives_the_total_only()
    {
        await Commands.PutAsync([Json("a", "{}"), Json("b", "{}")]);
        var page = await Commands.GetDocumentsAsync(0, 0);
        Assert.Empty(page.Results);
        Assert.Equal(2, page.TotalResults);
    }

    [Fact]
    public async Task Put_with_a_stale_etag_throws_ConcurrencyException_naming_the_command_and_writes_nothing()
    {
        var etags = await Commands.PutAsync([Json("carts/1", """{"v":1}""")]);
        var conflict = await Assert.ThrowsAsync<ConcurrencyException>(() => Commands.PutAsync([
            Json("carts/2", """{"v":1}"""),
            Json("carts/1", """{"v":2}""", etag: etags[0] + 100),
        ]));
        Assert.Equal("carts/1", conflict.Key);
        Assert.Equal(1, conflict.CommandIndex);
        Assert.Equal(etags[0] + 100, conflict.ExpectedEtag);
        Assert.Equal(etags[0], conflict.ActualEtag);
        Assert.Equal(1, (await Commands.GetDocumentsAsync(0, 10)).TotalResults);
    }

    [Fact]
    public async Task A_document_the_database_refuses_fails_the_batch_with_ArgumentException_and_writes_nothing()
    {
        var refused = await Assert.ThrowsAsync<ArgumentException>(() => Commands.PutAsync([
            Json("ok/1", "{}"),
            Json(new string('k', 300), "{}"),
        ]));
        Assert.Contains("255", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, (await Commands.GetDocumentsAsync(0, 10)).TotalResults);
    }

    [Fact]
    public async Task Bad_arguments_are_refused_before_anything_is_sent()
    {
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => Commands.GetDocumentsAsync(-1, 10));
        await Assert.ThrowsAsync<ArgumentException>(() => Commands.PutAsync([new DocumentJson("k", default, default)]));
        Assert.Throws<ArgumentNullException>(() => new DocumentCommands(null!));
    }
}

public sealed class EmbeddedDocumentCommandsTests : DocumentCommandsTests
{
    protected override Task<StoreFixture> StartAsync() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start());
}

public sealed class RemoteDocumentCommandsTests : DocumentCommandsTests
{
    protected override async Task<StoreFixture> StartAsync() => await RemoteStoreFixture.StartAsync();
}
