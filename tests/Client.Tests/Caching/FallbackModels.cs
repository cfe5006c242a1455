using System.Runtime.Serialization;
using Newtonsoft.Json;

namespace RavenLite.Client.Tests.Caching;

/// <summary>No parameterless constructor: Newtonsoft calls the positional one.</summary>
public sealed record Receipt(string? Id, decimal Amount, List<string> Lines);

/// <summary>A get-only collection Newtonsoft fills in place.</summary>
public sealed class Ledger
{
    public string? Id { get; set; }

    public List<int> Entries { get; } = [];
}

/// <summary>State computed by an [OnDeserialized] callback.</summary>
public sealed class Invoice
{
    public string? Id { get; set; }

    public List<decimal> Amounts { get; set; } = [];

    [JsonIgnore]
    public decimal Total { get; private set; }

    [OnDeserialized]
    internal void Sum(StreamingContext context) => Total = Amounts.Sum();
}

/// <summary>A member read by a custom converter.</summary>
public sealed class Tagged
{
    public string? Id { get; set; }

    [JsonConverter(typeof(UpperCaseConverter))]
    public string? Label { get; set; }
}

/// <summary>An interface-typed collection.</summary>
public sealed class Loose
{
    public string? Id { get; set; }

    public IList<string>? Names { get; set; }
}

/// <summary>An object-typed member (Newtonsoft gives a JToken or a primitive).</summary>
public sealed class Opaque
{
    public string? Id { get; set; }

    public object? Anything { get; set; }
}

/// <summary>Stores labels as they are and reads them back upper-cased.</summary>
public sealed class UpperCaseConverter : JsonConverter<string>
{
    public override string? ReadJson(JsonReader reader, Type objectType, string? existingValue, bool hasExistingValue, JsonSerializer serializer) =>
        (reader.Value as string)?.ToUpperInvariant();

    public override void WriteJson(JsonWriter writer, string? value, JsonSerializer serializer) => writer.WriteValue(value);
}
