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

/// <summary>Values of every kind the serializer writes, some (<see cref="Ratio"/> NaN) only as JSON text can carry them.</summary>
public sealed class Typed
{
    public string? Id { get; set; }

    public string Text { get; set; } = "ünïcödé \ud83d\ude00 \"q\"";

    public double Ratio { get; set; } = 12.0;

    public decimal Money { get; set; } = 19.990m;

    public float Fraction { get; set; } = 0.1f;

    public ulong Huge { get; set; } = 42;

    public DateTime Moment { get; set; } = new(2026, 11, 24, 5, 31, 3, DateTimeKind.Utc);

    public DateTimeOffset Offset { get; set; } = new(2026, 1, 2, 3, 4, 5, TimeSpan.FromHours(-7));

    public Guid Reference { get; set; } = Guid.Parse("c9a646d3-9c61-4cb7-bfcd-ee2522c8f633");

    public TimeSpan Span { get; set; } = TimeSpan.FromMinutes(90);

    public byte[] Bytes { get; set; } = [1, 2, 255];

    public int? Nothing { get; set; }

    public List<List<int>> Grid { get; set; } = [[1, 2], [], [3]];

    public Dictionary<string, object?> Extra { get; set; } = new() { ["é"] = 1.5, ["n"] = null };
}
