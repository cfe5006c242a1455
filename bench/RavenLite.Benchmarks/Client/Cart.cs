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
