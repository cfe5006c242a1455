using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Issues;

/// <summary>
/// Issue 31, found by the SQLite oracle (Server.Tests' MapReduceSqliteOracleTests): a numeric group key was grouped by
/// its text, and the store keeps <c>-0.0</c> as a double that reads back as <c>-0</c>, so orders of priority -0 and 0
/// made two groups, both shown as 0, each with part of the count. SQL's GROUP BY (and LINQ's) makes them one.
/// </summary>
public sealed class NegativeZeroGroupKeyTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public void Dispose() => _db.Dispose();

    [Theory]
    [InlineData("Long")]
    [InlineData("Double")]
    public void Negative_zero_and_zero_are_one_group_of_a_numeric_key(string sort)
    {
        _db.Indexes.PutIndex(IndexDefinition.FromJson($$$"""
            {"Name": "Orders/ByPriority", "EntityName": "Order",
             "Fields": [{"Name": "Priority", "Path": "Priority", "Sort": "{{{sort}}}"}],
             "Reduce": {"GroupBy": ["Priority"], "Aggregates": [{"Name": "Count", "Function": "Count"}]}}
            """));
        _db.Put("orders/1", """{"Priority": 0}""", "Order");
        _db.Put("orders/2", """{"Priority": -0.0}""", "Order");
        _db.Put("orders/3", """{"Priority": 0.0}""", "Order");
        _db.Put("orders/4", """{"Priority": 2}""", "Order");

        var result = _db.Query("Orders/ByPriority", "*:*", sortBy: ["Priority"]);

        Assert.Equal(2, result.TotalResults);
        Assert.Equal(0m, result.Results[0].Data.GetProperty("Priority").GetDecimal());
        Assert.Equal(3, result.Results[0].Data.GetProperty("Count").GetInt64());

        _db.Put("orders/2", """{"Priority": 2}""", "Order"); // leaves the zero group, taken out of the right one

        result = _db.Query("Orders/ByPriority", "*:*", sortBy: ["Priority"]);
        Assert.Equal(2, result.Results[0].Data.GetProperty("Count").GetInt64());
        Assert.Equal(2, result.Results[1].Data.GetProperty("Count").GetInt64());
    }
}
