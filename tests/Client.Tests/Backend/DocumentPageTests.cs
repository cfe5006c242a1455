using System.Text;
using RavenLite.Client.Backend;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Backend;

/// <summary>Pages of all documents as JSON, and raw puts, behave the same on the embedded backend and over a server.</summary>
public abstract class DocumentPageTests : IAsyncLifetime
{
    private StoreFixture? _fixture;

    private IStoreBackend Backend => (_fixture ?? throw new InvalidOperationException("Not started.")).Store.Backend;

    protected abstract Task<StoreFixture> StartAsync();

    public async Task InitializeAsync() => _fixture = await StartAsync();

    public async Task DisposeAsync()
    {
        if (_fixture is not null)
            await _fixture.DisposeAsync();
    }

    private static WriteCommand Put(string key, string data, string metadata = "{}", long? etag = null) =>
        WriteCommand.Put(key, Encoding.UTF8.GetBytes(data), Encoding.UTF8.GetBytes(metadata), etag);

    private static string Text(ReadOnlyMemory<byte> json) => Encoding.UTF8.GetString(json.Span);

    [Fact]
    public async Task A_page_returns_the_documents_newest_first_with_their_JSON_and_the_total()
    {
        var etags = await Backend.BatchAsync([
            Put("notes/1", """{"n":1}""", """{"Raven-Entity-Name":"Notes"}"""),
            Put("notes/2", """{"n":2,"s":"é\"x"}"""),
            Put("notes/3", """{"n":3}"""),
        ], CancellationToken.None);

        var page = await Backend.GetDocumentsAsync(start: 1, pageSize: 5, CancellationToken.None);
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
        await Backend.BatchAsync([Put("a", "{}"), Put("b", "{}")], CancellationToken.None);
        var page = await Backend.GetDocumentsAsync(0, 0, CancellationToken.None);
        Assert.Empty(page.Results);
        Assert.Equal(2, page.TotalResults);
    }

    [Fact]
    public async Task A_negative_start_is_refused_with_ArgumentException()
    {
        await Assert.ThrowsAnyAsync<ArgumentException>(() => Backend.GetDocumentsAsync(-1, 10, CancellationToken.None));
    }

    [Fact]
    public async Task A_stale_etag_in_a_batch_throws_ConcurrencyException_naming_the_command_and_writes_nothing()
    {
        var etags = await Backend.BatchAsync([Put("carts/1", """{"v":1}""")], CancellationToken.None);
        var conflict = await Assert.ThrowsAsync<ConcurrencyException>(() => Backend.BatchAsync([
            Put("carts/2", """{"v":1}"""),
            Put("carts/1", """{"v":2}""", etag: etags[0] + 100),
        ], CancellationToken.None));
        Assert.Equal("carts/1", conflict.Key);
        Assert.Equal(1, conflict.CommandIndex);
        Assert.Equal(etags[0] + 100, conflict.ExpectedEtag);
        Assert.Equal(etags[0], conflict.ActualEtag);
        Assert.Equal(1, (await Backend.GetDocumentsAsync(0, 10, CancellationToken.None)).TotalResults);
    }

    [Fact]
    public async Task A_document_the_database_refuses_fails_the_batch_with_ArgumentException_and_writes_nothing()
    {
        var refused = await Assert.ThrowsAsync<ArgumentException>(() => Backend.BatchAsync([
            Put("ok/1", "{}"),
            Put(new string('k', 300), "{}"),
        ], CancellationToken.None));
        Assert.Contains("255", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, (await Backend.GetDocumentsAsync(0, 10, CancellationToken.None)).TotalResults);
    }
}

public sealed class EmbeddedDocumentPageTests : DocumentPageTests
{
    protected override Task<StoreFixture> StartAsync() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start());
}

public sealed class RemoteDocumentPageTests : DocumentPageTests
{
    protected override async Task<StoreFixture> StartAsync() => await RemoteStoreFixture.StartAsync();
}
