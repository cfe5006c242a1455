using System.Collections.Immutable;
using Newtonsoft.Json;

namespace RavenLite.Client.Tests.Copying;

/// <summary>A positional record with a read-only list of records: shared, not copied.</summary>
public sealed record Ticket(string? Id, string Event, decimal Price, IReadOnlyList<Seat> Seats);

public sealed record Seat(string Row, int Number);

/// <summary>A class of <c>init</c> members with an immutable array and a read-only dictionary: shared.</summary>
public sealed class Badge
{
    public string? Id { get; init; }

    public string Name { get; init; } = "";

    public ImmutableArray<string> Tags { get; init; } = [];

    public IReadOnlyDictionary<string, int> Scores { get; init; } = ImmutableDictionary<string, int>.Empty;

    public Stamp? Issued { get; init; }
}

/// <summary>A read-only struct member.</summary>
public readonly record struct Stamp(DateTime At, string By);

/// <summary>A tree of read-only nodes: shared (a type that refers to itself).</summary>
public sealed record Outline(string? Id, string Title, ImmutableList<Outline> Children);

/// <summary>A read-only record over a base record: shared when the base is read-only too.</summary>
public record Shape(string? Id, string Name);

public sealed record Circle(string? Id, string Name, double Radius) : Shape(Id, Name);

/// <summary>Read-only on top, a mutable list inside: copied or deserialized, never shared.</summary>
public sealed record Bundle(string? Id, IReadOnlyList<Parcel> Parcels);

public sealed class Parcel
{
    public string? Label { get; set; }
}

/// <summary>A private setter: mutable.</summary>
public sealed class Counter
{
    public string? Id { get; init; }

    public int Count { get; private set; }
}

/// <summary>A mutable field that JSON never sees still changes the instance.</summary>
public sealed record Memo(string? Id, string Text)
{
    [JsonIgnore]
    private int _reads;

    public int CountRead() => ++_reads;
}

/// <summary><c>IEnumerable&lt;T&gt;</c>: Newtonsoft creates a <see cref="List{T}"/>.</summary>
public sealed record Playlist(string? Id, IEnumerable<string> Songs);

/// <summary>An array member: its elements can be changed.</summary>
public sealed record Palette(string? Id, string[] Colors);

/// <summary>An <c>object</c> member.</summary>
public sealed record Envelope(string? Id, object? Content);

/// <summary>A mutable base.</summary>
public class Mutable
{
    public string? Note { get; set; }
}

public sealed class Derived : Mutable
{
    public string? Id { get; init; }
}
