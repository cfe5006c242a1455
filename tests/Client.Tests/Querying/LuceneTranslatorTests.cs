using System.Linq.Expressions;
using RavenLite.Client.Querying;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

public sealed class LuceneTranslatorTests
{
    private static string Translate(Expression<Func<Cart, bool>> predicate) => LuceneTranslator.Translate(predicate);

    [Fact]
    public void Comparisons_become_terms_and_ranges()
    {
        Assert.Equal("Total:5", Translate(c => c.Total == 5));
        Assert.Equal("Total:{* TO 5}", Translate(c => c.Total < 5));
        Assert.Equal("Total:[* TO 5]", Translate(c => c.Total <= 5));
        Assert.Equal("Total:{5 TO *}", Translate(c => c.Total > 5));
        Assert.Equal("Total:[5 TO *]", Translate(c => 5 <= c.Total)); // constant on the left: flipped
    }

    [Fact]
    public void Strings_are_quoted_and_escaped_and_captured_values_are_evaluated()
    {
        var customer = "o\"ren \\ x";
        Assert.Equal("Customer:\"o\\\"ren \\\\ x\"", Translate(c => c.Customer == customer));
        Assert.Equal("Customer:car\\/*", Translate(c => c.Customer!.StartsWith("car/")));
    }

    [Fact]
    public void And_or_and_any_nest_with_parentheses()
    {
        Assert.Equal("((Total:{1 TO *}) AND (Customer:\"a\")) OR (ProductId:42)",
            Translate(c => c.Total > 1 && c.Customer == "a" || c.Items.Any(i => i.ProductId == 42)));
        Assert.Equal("Price:\\-1\\.5", Translate(c => c.Items.Any(i => i.Price == -1.5)));
    }

    [Fact]
    public void Anything_else_is_NotSupportedException_naming_it()
    {
        var error = Assert.Throws<NotSupportedException>(() => Translate(c => c.Total != 5));
        Assert.Contains("!=", error.Message, StringComparison.Ordinal);
        Assert.Throws<NotSupportedException>(() => Translate(c => c.Customer!.Contains('x')));
        Assert.Throws<NotSupportedException>(() => Translate(c => c.Customer == null));
        Assert.Throws<NotSupportedException>(() => Translate(c => c.Total == c.Items.Count));
    }
}
