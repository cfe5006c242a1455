using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.Tests.Definitions;

public sealed class IndexNameTests
{
    [Theory]
    [InlineData("Raven/DocumentsByEntityName", "raven_2fdocumentsbyentityname")]
    [InlineData("Orders", "orders")]
    [InlineData("ORDERS", "orders")]
    [InlineData("Carts_By-Product", "carts_5fby-product")]
    [InlineData("Orders.v2", "orders_2ev2")]
    public void Folder_names_are_one_safe_lower_case_path_segment(string name, string folder)
    {
        Assert.Equal(folder, IndexName.ToFolderName(name));
    }

    [Fact]
    public void Long_names_get_a_short_folder_name_with_a_hash_of_the_whole_name()
    {
        var a = IndexName.ToFolderName(string.Concat(Enumerable.Repeat("a_", 45)) + "a");
        var b = IndexName.ToFolderName(string.Concat(Enumerable.Repeat("a_", 45)) + "b");
        Assert.NotEqual(a, b);
        Assert.True(a.Length <= 100, a);
        Assert.Matches("^[a-z0-9_~-]+$", a);
    }

    [Theory]
    [InlineData("")]
    [InlineData("   ")]
    [InlineData("a/../b")]
    [InlineData("..")]
    [InlineData("a\\b")]
    [InlineData("a\tb")]
    [InlineData("a\0b")]
    [InlineData("/a")]
    [InlineData("a/")]
    [InlineData("a//b")]
    [InlineData("a:b")]
    [InlineData("a*")]
    [InlineData(" a")]
    public void Names_with_path_characters_are_refused(string name)
    {
        Assert.Throws<ArgumentException>(() => IndexName.Validate(name));
    }

    [Fact]
    public void Over_long_names_are_refused()
    {
        Assert.Throws<ArgumentException>(() => IndexName.Validate(new string('a', IndexName.MaxLength + 1)));
        IndexName.Validate(new string('a', IndexName.MaxLength));
    }

    [Theory]
    [InlineData("Ünï")]
    [InlineData("\u212Aey")]          // KELVIN SIGN: lower-cases to 'k', so it would share "key"'s folder
    [InlineData("σ")]
    [InlineData("ς")]
    [InlineData("Orders by date")]
    [InlineData("a+b")]
    [InlineData("a%2fb")]
    [InlineData("a~b")]
    public void Names_outside_the_ascii_set_are_refused_saying_which_character(string name)
    {
        var error = Assert.Throws<ArgumentException>(() => IndexName.Validate(name));
        Assert.Contains("letters, digits", error.Message);
    }

    [Fact]
    public void Kelvin_sign_name_cannot_take_the_folder_of_a_plain_ascii_name()
    {
        Assert.Equal("key", IndexName.ToFolderName("key"));
        Assert.Throws<ArgumentException>(() => IndexName.ToFolderName("\u212Aey"));
    }

    [Theory]
    [InlineData("con")]
    [InlineData("CON")]
    [InlineData("nul")]
    [InlineData("Prn")]
    [InlineData("aux")]
    [InlineData("com1")]
    [InlineData("COM9")]
    [InlineData("lpt1")]
    [InlineData("lpt9")]
    [InlineData("nul.txt")]
    [InlineData("Orders/con")]
    [InlineData("aux/Orders")]
    [InlineData("Orders/com3.idx")]
    public void Windows_device_names_are_refused_even_as_a_segment_or_with_an_extension(string name)
    {
        var error = Assert.Throws<ArgumentException>(() => IndexName.Validate(name));
        Assert.Contains("device name", error.Message);
    }

    [Theory]
    [InlineData("console")]
    [InlineData("com10")]
    [InlineData("com0")]
    [InlineData("Orders/nullable")]
    [InlineData("lpt")]
    [InlineData("Carts/By_Product-2.v1")]
    public void Names_that_only_resemble_device_names_are_accepted(string name)
    {
        IndexName.Validate(name);
    }
}
