using Newtonsoft.Json;
using Newtonsoft.Json.Converters;
using RavenLite.Client.Copying;

namespace RavenLite.Client.Tests.Copying;

/// <summary>Which types' instances the sessions share as the cache holds them (nothing in them can change), and which are copied or deserialized.</summary>
public sealed class ReadOnlyTypesTests
{
    private readonly EntityCopiers _copiers = new(new JsonSerializerSettings());

    [Theory]
    [InlineData(typeof(Ticket))]
    [InlineData(typeof(Seat))]
    [InlineData(typeof(Badge))]
    [InlineData(typeof(Outline))]
    [InlineData(typeof(Shape))]
    [InlineData(typeof(Circle))]
    public void Read_only_types_are_shared_not_copied(Type type)
    {
        var copier = _copiers.For(type);
        Assert.NotNull(copier);
        Assert.True(copier.SharesInstances);
        var instance = new object();
        Assert.Same(instance, copier.Copy(instance));
    }

    [Theory]
    [InlineData(typeof(Bundle))]
    [InlineData(typeof(Counter))]
    [InlineData(typeof(Memo))]
    [InlineData(typeof(Playlist))]
    [InlineData(typeof(Palette))]
    [InlineData(typeof(Envelope))]
    [InlineData(typeof(Derived))]
    [InlineData(typeof(Infrastructure.Cart))]
    [InlineData(typeof(Caching.Receipt))]
    public void Types_with_anything_that_can_change_are_not_shared(Type type) =>
        Assert.False(_copiers.For(type)?.SharesInstances ?? false, $"{type} must not be shared");

    [Fact]
    public void A_read_only_types_copier_compares_by_reference()
    {
        var copier = _copiers.For(typeof(Ticket))!;
        var ticket = new Ticket("tickets/1", "opera", 12.5m, [new Seat("A", 1)]);
        Assert.True(copier.Same(ticket, ticket));
        Assert.False(copier.Same(ticket with { Price = 13m }, ticket));
        Assert.False(copier.Same(ticket with { }, ticket));
    }

    [Fact]
    public void A_converter_in_the_settings_for_a_member_type_stops_the_sharing()
    {
        var copiers = new EntityCopiers(new JsonSerializerSettings { Converters = [new IsoDateTimeConverter()] });
        Assert.False(copiers.For(typeof(Badge))?.SharesInstances ?? false);
        Assert.True(copiers.For(typeof(Ticket))!.SharesInstances);
    }

    [Theory]
    [InlineData(TypeNameHandling.Auto, PreserveReferencesHandling.None)]
    [InlineData(TypeNameHandling.None, PreserveReferencesHandling.Objects)]
    public void Settings_that_write_types_or_references_stop_the_sharing(TypeNameHandling names, PreserveReferencesHandling references)
    {
        var copiers = new EntityCopiers(new JsonSerializerSettings { TypeNameHandling = names, PreserveReferencesHandling = references });
        Assert.False(copiers.For(typeof(Ticket))?.SharesInstances ?? false);
    }

    [Fact]
    public void What_newtonsoft_creates_for_a_read_only_member_cannot_be_changed()
    {
        // The rule rests on this: a read-only interface member is filled with a read-only collection, not a list.
        var ticket = JsonConvert.DeserializeObject<Ticket>("""{"Id":"tickets/1","Event":"opera","Price":1,"Seats":[{"Row":"A","Number":1}]}""")!;
        Assert.False(ticket.Seats is IList<Seat> { IsReadOnly: false });
        var badge = JsonConvert.DeserializeObject<Badge>("""{"Id":"badges/1","Name":"n","Tags":["x"],"Scores":{"a":1}}""")!;
        Assert.False(badge.Scores is IDictionary<string, int> { IsReadOnly: false });
    }
}
