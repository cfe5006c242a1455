namespace RavenLite.Client.Tests.Infrastructure;

public class Cart
{
    public string? Id { get; set; }

    public string? Customer { get; set; }

    public int Total { get; set; }

    public List<Item> Items { get; set; } = [];
}

public class Item
{
    public int ProductId { get; set; }

    public string? Name { get; set; }

    public double Price { get; set; }
}

public class Animal
{
    public string? Id { get; set; }

    public string? Name { get; set; }
}

public sealed class Dog : Animal
{
    public string? Breed { get; set; }
}

/// <summary>Refers to itself: Newtonsoft refuses the loop, so it cannot be stored.</summary>
public sealed class SelfReference
{
    public string? Id { get; set; }

    public SelfReference? Self { get; set; }
}
