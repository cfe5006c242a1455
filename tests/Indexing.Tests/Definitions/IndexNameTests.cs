using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.Tests.Definitions;

public sealed class IndexNameTests
{
    [Theory]
    [InlineData("Raven/DocumentsByEntityName", "raven_2fdocumentsbyentityname")]
    [InlineData("Orders", "orders")]
    [InlineData("ORDERS", "orders")]
    [InlineData("Carts_By-Product", "carts_5fby-product")]
    [InlineData("Ünï.x", "_c3_bcn_c3_af_2ex")]
    public void Folder_names_are_one_safe_lower_case_path_segment(string name, string folder)
    {
        Assert.Equal(folder, IndexName.ToFolderName(name));
    }

    [Fact]
    public void Long_names_get_a_short_folder_name_with_a_hash_of_the_whole_name()
    {
        var a = IndexName.ToFolderName(new string('é', 90) + "a");
        var b = IndexName.ToFolderName(new string('é', 90) + "b");
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
}
