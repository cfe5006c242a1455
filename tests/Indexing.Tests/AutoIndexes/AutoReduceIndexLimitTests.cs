using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.AutoIndexes;

/// <summary>The auto map/reduce indexes a LINQ GroupBy asks for by name count towards MaxAutoIndexes, as auto indexes do.</summary>
public sealed class AutoReduceIndexLimitTests
{
    private static IndexDefinition Reduce(string name) => IndexDefinition.FromJson($$$"""
        {"Name": "{{{name}}}", "EntityName": "Order",
         "Fields": [{"Name": "Key_Customer", "Path": "Customer"}],
         "Reduce": {"GroupBy": ["Key_Customer"], "Aggregates": [{"Name": "Count", "Function": "Count"}]}}
        """);

    [Fact]
    public void A_new_auto_map_reduce_index_past_MaxAutoIndexes_is_refused_with_LimitExceededException()
    {
        using var db = new TestIndexes(maxAutoIndexes: 2);
        db.Put("orders/1", """{"Customer":"Bob"}""", "Order");
        db.Query("dynamic/Order", "Customer:Bob"); // a map auto index counts
        Assert.True(db.Indexes.PutIndex(Reduce("Auto/Order/ReduceCountByCustomer")));

        var refused = Assert.Throws<LimitExceededException>(() => db.Indexes.PutIndex(Reduce("Auto/Order/ReduceCountByStatus")));

        Assert.Equal("MaxAutoIndexes", refused.Limit);
        Assert.Contains("'Auto/Order/ReduceCountByStatus'", refused.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(db.Indexes.GetIndexDefinitions(), d => d.Name == "Auto/Order/ReduceCountByStatus");
        // Putting an existing one again, and a map/reduce index under another name, are not limited.
        Assert.False(db.Indexes.PutIndex(Reduce("Auto/Order/ReduceCountByCustomer")));
        Assert.True(db.Indexes.PutIndex(Reduce("Orders/CountByCustomer")));
    }
}
