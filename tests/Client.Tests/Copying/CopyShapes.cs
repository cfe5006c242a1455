using Newtonsoft.Json;

namespace RavenLite.Client.Tests.Copying;

public enum Color
{
    Red,
    Green,
    Blue,
}

/// <summary>Every leaf type the copier shares instead of copying.</summary>
public class Leaves
{
    public string? Text { get; set; }
    public int Count { get; set; }
    public long Big { get; set; }
    public double Ratio { get; set; }
    public decimal Amount { get; set; }
    public bool Flag { get; set; }
    public char Letter { get; set; }
    public DateTime When { get; set; }
    public DateTimeOffset WhenWithOffset { get; set; }
    public TimeSpan Span { get; set; }
    public Guid Reference { get; set; }
    public Color Color { get; set; }
    public int? MaybeInt { get; set; }
    public Color? MaybeColor { get; set; }
    public DateTime? MaybeWhen { get; set; }
    public Uri? Link { get; set; }
    public byte[]? Bytes { get; set; }
}

/// <summary>Nested classes and every collection the copier knows, nested in each other.</summary>
public class Graph
{
    public string? Name { get; set; }
    public Leaves? Leaf { get; set; }
    public List<Leaves>? Many { get; set; }
    public Leaves[]? Array { get; set; }
    public Dictionary<string, Leaves>? ByName { get; set; }
    public Dictionary<int, string>? Codes { get; set; }
    public Dictionary<Color, List<double>>? Series { get; set; }
    public HashSet<string>? Tags { get; set; }
    public List<List<int>>? Grid { get; set; }
    public int[]? Numbers { get; set; }
    public Node? Tree { get; set; }
}

/// <summary>A type that refers to itself: deserialized instances are trees.</summary>
public class Node
{
    public string? Label { get; set; }
    public List<Node>? Children { get; set; }
    public Node? Next { get; set; }
}

/// <summary>Public fields, a base class's members, a private setter Newtonsoft is told to use, an init-only and a computed property.</summary>
#pragma warning disable CA1051 // public fields are one of the shapes Newtonsoft (and so the copier) reads and writes
public class Mixed : Graph
{
    public int Field;
    public List<string>? Words;

    [JsonProperty]
    public string? Secret { get; private set; }

    public string? Fixed { get; init; }

    public int WordCount => Words?.Count ?? 0;

    [JsonIgnore]
    public string? NotStored { get; set; }

    public void SetSecret(string? secret) => Secret = secret;
}
#pragma warning restore CA1051

/// <summary>A list the constructor fills: Newtonsoft appends to it, and a copy must say what deserializing says.</summary>
public class Prefilled
{
    public List<int> Numbers { get; set; } = [1, 2];
    public Dictionary<string, int> Counts { get; set; } = new(StringComparer.OrdinalIgnoreCase);
}
