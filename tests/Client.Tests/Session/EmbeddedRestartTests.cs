using RavenLite.Client.Tests.Infrastructure;
using RavenLite.Database;

namespace RavenLite.Client.Tests.Session;

/// <summary>An embedded store closed and opened again on its folder: what it generates and what it reads.</summary>
public sealed class EmbeddedRestartTests : IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "ravenlite-client-tests", Guid.NewGuid().ToString("N"));

    [Fact]
    public void Ids_generated_after_a_restart_do_not_repeat_those_before_it()
    {
        var before = StoreCarts(3);
        var after = StoreCarts(3);
        Assert.Equal(["carts/1", "carts/2", "carts/3"], before);
        Assert.Empty(before.Intersect(after, StringComparer.OrdinalIgnoreCase));
        using var store = Open();
        using var session = store.OpenSession();
        Assert.All(session.Load<Cart>([.. before, .. after]), Assert.NotNull);
    }

    private List<string> StoreCarts(int count)
    {
        using var store = Open();
        using var session = store.OpenSession();
        var carts = Enumerable.Range(0, count).Select(i => new Cart { Customer = "c" + i }).ToList();
        carts.ForEach(session.Store);
        session.SaveChanges();
        return [.. carts.Select(c => c.Id!)];
    }

    private RavenStore Open() => RavenStore.OpenEmbedded(new DocumentDatabaseOptions { DataDirectory = _directory, MapSize = 64L << 20 });

    public void Dispose()
    {
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }
}
