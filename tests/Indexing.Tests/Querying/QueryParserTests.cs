using RavenLite.Indexing.Querying;

namespace RavenLite.Indexing.Tests.Querying;

public sealed class QueryParserTests
{
    /// <summary>A canonical form: +must, -mustNot, bare should; groups in parentheses.</summary>
    private static string Show(QuerySyntax syntax) => syntax switch
    {
        MatchAllSyntax => "*:*",
        TermSyntax t => $"{t.Field.Name}:{t.Text}{(t.IsPrefix ? "*" : "")}",
        PhraseSyntax p => $"{p.Field.Name}:\"{p.Text}\"",
        RangeSyntax r => $"{r.Field.Name}:{(r.IncludeLower ? '[' : '{')}{r.Lower ?? "*"} TO {r.Upper ?? "*"}{(r.IncludeUpper ? ']' : '}')}",
        BooleanSyntax b => "(" + string.Join(" ", b.Clauses.Select(c =>
            (c.Occur switch { Occur.Must => "+", Occur.MustNot => "-", _ => "" }) + Show(c.Query))) + ")",
        _ => "?",
    };

    [Theory]
    [InlineData("Tag:Item", "Tag:Item")]
    [InlineData("  Tag:Item  ", "Tag:Item")]
    [InlineData("", "*:*")]
    [InlineData("*:*", "*:*")]
    [InlineData("Tag:Item Tag:User", "(Tag:Item Tag:User)")]
    [InlineData("Tag:Item OR Tag:User", "(Tag:Item Tag:User)")]
    [InlineData("Tag:Item || Tag:User", "(Tag:Item Tag:User)")]
    [InlineData("Tag:Item AND Price:5", "(+Tag:Item +Price:5)")]
    [InlineData("Tag:Item && Price:5", "(+Tag:Item +Price:5)")]
    [InlineData("a:1 OR b:2 AND c:3", "(a:1 (+b:2 +c:3))")]
    [InlineData("a:1 AND NOT b:2", "(+a:1 -b:2)")]
    [InlineData("a:1 AND !b:2", "(+a:1 -b:2)")]
    [InlineData("+a:1 -b:2 c:3", "(+a:1 -b:2 c:3)")]
    [InlineData("NOT a:1", "(-a:1)")]
    [InlineData("(a:1 OR b:2) AND c:3", "(+(a:1 b:2) +c:3)")]
    [InlineData("Tag:(Item User)", "(Tag:Item Tag:User)")]
    [InlineData("Tag:(+Item -User)", "(+Tag:Item -Tag:User)")]
    [InlineData("Name:\"brimstone red\"", "Name:\"brimstone red\"")]
    [InlineData("Name:\"say \\\"hi\\\"\"", "Name:\"say \"hi\"\"")]
    [InlineData("Price:[1 TO 5]", "Price:[1 TO 5]")]
    [InlineData("Price:{1 TO 5}", "Price:{1 TO 5}")]
    [InlineData("Price:[1 TO 5}", "Price:[1 TO 5}")]
    [InlineData("Price:[* TO 5]", "Price:[* TO 5]")]
    [InlineData("Price:[-5.5 TO *}", "Price:[-5.5 TO *}")]
    [InlineData("When:[\"2026-01-01T00:00\" TO *]", "When:[2026-01-01T00:00 TO *]")]
    [InlineData("Name:brim*", "Name:brim*")]
    [InlineData("Name:*", "Name:*")]
    [InlineData("Key:carts\\/1", "Key:carts/1")]
    [InlineData("Key:carts/1", "Key:carts/1")]
    [InlineData("Key:a\\:b", "Key:a:b")]
    [InlineData("Key:foo-bar", "Key:foo-bar")]
    [InlineData("Price:-5", "Price:-5")]
    [InlineData("Key:a\\*", "Key:a*")]
    [InlineData("Tag:ANDROID", "Tag:ANDROID")]
    public void Parses_the_supported_syntax(string query, string expected)
    {
        Assert.Equal(expected, Show(QueryParser.Parse(query)));
    }

    [Theory]
    [InlineData("Tag:(Item", 4, "never closed")]
    [InlineData("Tag:Item)", 8, "closes nothing")]
    [InlineData("Item", 0, "names no field")]
    [InlineData("Tag:Item AND", 9, "nothing after it")]
    [InlineData("AND Tag:Item", 0, "nothing before it")]
    [InlineData("OR Tag:Item", 0, "nothing before it")]
    [InlineData("Tag:Item OR", 9, "nothing after it")]
    [InlineData("Name:\"open", 5, "never closed")]
    [InlineData("Price:[1 5]", 9, "'TO'")]
    [InlineData("Price:[1 TO 5", 6, "must end with")]
    [InlineData("Price:[1 TO", 6, "never closed")]
    [InlineData("Name:bri*m", 8, "trailing '*'")]
    [InlineData("Name:br?m", 7, "'?' wildcard")]
    [InlineData("Name:brim^2", 9, "boosts")]
    [InlineData("Name:brim~", 9, "fuzzy")]
    [InlineData("Name:/br.m/", 5, "regular expressions")]
    [InlineData("Name:", 0, "no value")]
    [InlineData("Name:a:b", 6, "unexpected ':'")]
    [InlineData("Tag:Item ()", 9, "empty parentheses")]
    [InlineData("Tag:Item\\", 8, "lone '\\'")]
    [InlineData("+ Tag:Item", 0, "followed directly")]
    [InlineData("Tag:Item NOT", 9, "nothing after it")]
    public void Unparseable_queries_fail_with_the_position(string query, int position, string problem)
    {
        var ex = Assert.Throws<QueryException>(() => QueryParser.Parse(query));
        Assert.Equal(position, ex.Position);
        Assert.Equal(query, ex.Query);
        Assert.Contains(problem, ex.Message, StringComparison.Ordinal);
        Assert.Contains($"'{query}'", ex.Message, StringComparison.Ordinal);
        Assert.Contains($"position {position}", ex.Message, StringComparison.Ordinal);
    }
}
