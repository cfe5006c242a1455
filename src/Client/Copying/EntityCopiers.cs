using System.Collections.Concurrent;
using Newtonsoft.Json;

namespace RavenLite.Client.Copying;

/// <summary>
/// The copiers of one store's entity types under its serializer settings, decided and compiled once per type: none
/// for a read-only type (<see cref="ReadOnlyTypes"/>: its instances are shared), a compiled copier, or the reason the
/// type falls back to deserialization. Thread-safe.
/// </summary>
internal sealed class EntityCopiers(JsonSerializerSettings settings)
{
    private readonly JsonSerializer _serializer = JsonSerializer.Create(settings);
    private readonly ConcurrentDictionary<Type, Choice> _choices = new();

    /// <summary>The copier of <paramref name="type"/>; null when it falls back to deserialization.</summary>
    public ObjectCopier? For(Type type) => Choose(type).Copier;

    /// <summary>Why <paramref name="type"/> falls back to deserialization; null when it is copied.</summary>
    public string? FallbackReason(Type type) => Choose(type).FallbackReason;

    private Choice Choose(Type type) => _choices.TryGetValue(type, out var choice) ? choice : _choices.GetOrAdd(type, Decide);

    private Choice Decide(Type type)
    {
        // A read-only type needs no copy at all: what the cache holds is what every session gets.
        if (new ReadOnlyTypes(_serializer).IsReadOnly(type))
            return new Choice((ObjectCopier)Activator.CreateInstance(typeof(SharedInstances<>).MakeGenericType(type))!, null);
        // Newtonsoft's contract resolver is thread-safe, the planner is not: one planner per decision.
        var plans = new CopyPlanner(_serializer).Plan(type, out var reason);
        return plans is null ? new Choice(null, reason) : new Choice(CopierCompiler.Compile(type, plans), null);
    }

    private sealed record Choice(ObjectCopier? Copier, string? FallbackReason);
}
