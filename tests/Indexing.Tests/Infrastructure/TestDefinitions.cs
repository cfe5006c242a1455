using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.Tests.Infrastructure;

internal static class TestDefinitions
{
    public const string ByEntityName = BuiltInIndexes.DocumentsByEntityNameName;

    /// <summary>Carts by product: product ids (exact), prices (double), item names (full text), cart id (long).</summary>
    public static IndexDefinition CartsByProduct { get; } = IndexDefinition.FromJson("""
        {"Name": "Carts/ByProduct", "EntityName": "Item",
         "Fields": [{"Name": "ProductId", "Path": "itemList[].productId"},
                    {"Name": "Price", "Path": "itemList[].price", "Sort": "Double"},
                    {"Name": "ItemName", "Path": "itemList[].name", "Analysis": "FullText"},
                    {"Name": "CartId", "Path": "cartId", "Sort": "Long"},
                    {"Name": "Notes", "Path": "otherStuff", "Analysis": "FullText", "Sort": "String"}]}
        """);

    public static IndexDefinition Simple(string name, string path = "name", string analysis = "Exact", string sort = "String") =>
        IndexDefinition.FromJson($$"""
            {"Name": "{{name}}", "Fields": [{"Name": "Value", "Path": "{{path}}", "Analysis": "{{analysis}}", "Sort": "{{sort}}"}]}
            """);
}
