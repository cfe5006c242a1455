using Newtonsoft.Json;
using Newtonsoft.Json.Converters;
using RavenLite.Client.Copying;
using RavenLite.Client.Tests.Copying;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Caching;

/// <summary>Which types the copier takes and which fall back to deserialization, and why; decided once per type.</summary>
public sealed class CopierFallbackTests
{
    private readonly EntityCopiers _copiers = new(new JsonSerializerSettings());

    [Theory]
    [InlineData(typeof(Cart))]
    [InlineData(typeof(Graph))]
    [InlineData(typeof(Node))]
    [InlineData(typeof(Mixed))]
    public void Plain_classes_are_copied(Type type)
    {
        Assert.Null(_copiers.FallbackReason(type));
        Assert.NotNull(_copiers.For(type));
    }

    [Theory]
    [InlineData(typeof(Receipt), "parameterless constructor")]
    [InlineData(typeof(Ledger), "get-only")]
    [InlineData(typeof(Invoice), "OnDeserialized")]
    [InlineData(typeof(Tagged), "JsonConverter")]
    [InlineData(typeof(Loose), "collection type")]
    [InlineData(typeof(Opaque), "deserialization does not create as such")]
    public void Types_the_copier_cannot_copy_faithfully_fall_back_with_the_reason(Type type, string reason)
    {
        Assert.Null(_copiers.For(type));
        Assert.Contains(reason, _copiers.FallbackReason(type), StringComparison.Ordinal);
    }

    [Fact]
    public void A_converter_in_the_settings_that_reads_a_member_type_makes_the_type_fall_back()
    {
        var copiers = new EntityCopiers(new JsonSerializerSettings { Converters = [new IsoDateTimeConverter()] });
        Assert.Null(copiers.For(typeof(Leaves)));
        Assert.Contains("IsoDateTimeConverter", copiers.FallbackReason(typeof(Leaves)), StringComparison.Ordinal);
        Assert.NotNull(copiers.For(typeof(Cart)));
    }

    [Theory]
    [InlineData(TypeNameHandling.Auto, PreserveReferencesHandling.None, "TypeNameHandling")]
    [InlineData(TypeNameHandling.None, PreserveReferencesHandling.Objects, "preserve references")]
    public void Settings_that_write_types_or_references_make_every_type_fall_back(TypeNameHandling names, PreserveReferencesHandling references, string reason)
    {
        var copiers = new EntityCopiers(new JsonSerializerSettings { TypeNameHandling = names, PreserveReferencesHandling = references });
        Assert.Null(copiers.For(typeof(Cart)));
        Assert.Contains(reason, copiers.FallbackReason(typeof(Cart)), StringComparison.Ordinal);
    }

    [Fact]
    public void The_decision_is_made_once_per_type()
    {
        Assert.Same(_copiers.For(typeof(Cart)), _copiers.For(typeof(Cart)));
    }
}
