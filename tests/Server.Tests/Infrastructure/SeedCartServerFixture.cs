using Microsoft.Extensions.DependencyInjection;
using RavenLite.Database;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Tests.Infrastructure;

/// <summary>
/// A server whose database holds 1,024 seed carts (<c>carts/0</c> .. <c>carts/1023</c>, entity name <c>Item</c>) from
/// testdata/seed-cart.bson: metadata BSON in bytes 0..32, data BSON in bytes 33..734. They are put with the
/// embedded API in one batch before the tests run, which is faster than 1,024 HTTP puts and stores the seed's
/// BSON exactly.
/// </summary>
public sealed class SeedCartServerFixture : ServerFixture
{
    public const int Carts = 1024;

    private static readonly byte[] s_seed = File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "Data", "seed-cart.bson"));

    protected override async Task<TestServer> StartAsync()
    {
        var server = await TestServer.StartAsync();
        var database = server.App.Services.GetRequiredService<DocumentDatabase>();
        var metadata = DocumentContent.FromBson(s_seed.AsSpan(0, 33));
        var data = DocumentContent.FromBson(s_seed.AsSpan(33));
        database.Batch([.. Enumerable.Range(0, Carts).Select(i => BatchCommand.Put($"carts/{i}", data, metadata))]);
        return server;
    }
}
