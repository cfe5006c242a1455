using Newtonsoft.Json;

namespace RavenLite.Benchmarks.Client;

/// <summary>The seed cart as a class, JSON names as testdata/seed-cart.json has them.</summary>
public sealed class Cart
{
    public string? Id { get; set; }

    [JsonProperty("cartId")]
    public long CartId { get; set; }

    [JsonProperty("otherStuff")]
    public string? OtherStuff { get; set; }

    [JsonProperty("itemList")]
    public List<Item> Items { get; set; } = [];
}

/// <summary>One line of the seed cart.</summary>
public sealed class Item
{
    [JsonProperty("productId")]
    public int ProductId { get; set; }

    [JsonProperty("name")]
    public string? Name { get; set; }

    [JsonProperty("price")]
    public double Price { get; set; }

    [JsonProperty("quantity")]
    public int Quantity { get; set; }
}

/// <summary>
/// The seed cart as a read-only class (<c>init</c> members, a read-only list of read-only items): the sessions share
/// the instance the entity cache holds instead of copying it.
/// </summary>
public sealed class ReadOnlyCart
{
    public string? Id { get; init; }

    [JsonProperty("cartId")]
    public long CartId { get; init; }

    [JsonProperty("otherStuff")]
    public string? OtherStuff { get; init; }

    [JsonProperty("itemList")]
    public IReadOnlyList<ReadOnlyItem> Items { get; init; } = [];
}

/// <summary>One line of the read-only seed cart.</summary>
public sealed record ReadOnlyItem(
    [property: JsonProperty("productId")] int ProductId,
    [property: JsonProperty("name")] string? Name,
    [property: JsonProperty("price")] double Price,
    [property: JsonProperty("quantity")] int Quantity);
