using Newtonsoft.Json;

namespace RavenLite.Samples.SeedCart;

/// <summary>The 2011 seed cart (testdata/seed-cart.json), as a class; JSON names as the document has them.</summary>
public sealed class Cart
{
    /// <summary>The document id (<c>carts/1</c>), set by the session.</summary>
    public string? Id { get; set; }

    /// <summary>The cart's number.</summary>
    [JsonProperty("cartId")]
    public int CartId { get; set; }

    /// <summary>Free text.</summary>
    [JsonProperty("otherStuff")]
    public string? OtherStuff { get; set; }

    /// <summary>The cart's lines.</summary>
    [JsonProperty("itemList")]
    public List<Item> Items { get; set; } = [];
}

/// <summary>One line of a cart.</summary>
public sealed class Item
{
    /// <summary>The product.</summary>
    [JsonProperty("productId")]
    public int ProductId { get; set; }

    /// <summary>The product's name.</summary>
    [JsonProperty("name")]
    public string? Name { get; set; }

    /// <summary>The unit price.</summary>
    [JsonProperty("price")]
    public double Price { get; set; }

    /// <summary>How many.</summary>
    [JsonProperty("quantity")]
    public int Quantity { get; set; }
}
