using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Storage.Tests.Engines;

public sealed class StorageEngineFactoryTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void An_engine_whose_assembly_is_absent_is_refused_naming_the_package_to_add()
    {
        var ex = Assert.Throws<InvalidOperationException>(() =>
            StorageEngineFactory.LoadProvider(StorageEngineKind.Esent, "RavenLite.Storage.NoSuchEngine"));
        Assert.Contains("needs the RavenLite.Storage.NoSuchEngine package", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void An_assembly_that_provides_another_engine_is_refused()
    {
        var ex = Assert.Throws<InvalidOperationException>(() =>
            StorageEngineFactory.LoadProvider(StorageEngineKind.Lmdb, "RavenLite.Storage.Esent"));
        Assert.Contains("provides Esent, not Lmdb", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void An_assembly_without_a_provider_is_refused()
    {
        var ex = Assert.Throws<InvalidOperationException>(() =>
            StorageEngineFactory.LoadProvider(StorageEngineKind.Esent, "RavenLite.Storage"));
        Assert.Contains("declares no storage engine provider", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Esent_is_found_in_its_own_assembly_and_RavenLite_Storage_does_not_reference_it()
    {
        var provider = StorageEngineFactory.LoadProvider(StorageEngineKind.Esent, "RavenLite.Storage.Esent");
        Assert.Equal("RavenLite.Storage.Esent", provider.GetType().Assembly.GetName().Name);
        Assert.DoesNotContain(typeof(IStorageEngine).Assembly.GetReferencedAssemblies(),
            name => name.Name!.StartsWith("RavenLite.Storage.", StringComparison.Ordinal));
    }
}
