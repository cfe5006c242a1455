using System.Collections;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace RavenLite.Client.Tests.Copying;

/// <summary>Walks two object graphs together: no mutable object of one is reachable from the other.</summary>
internal static class GraphAssert
{
    public static void SharesNothingMutable(object copy, object original)
    {
        var seen = new HashSet<object>(ReferenceEqualityComparer.Instance);
        Collect(original, seen);
        Walk(copy, seen, "copy");
    }

    private static void Collect(object? value, HashSet<object> seen)
    {
        if (value is null || IsImmutable(value.GetType()) || !seen.Add(value))
            return;
        foreach (var child in Children(value))
            Collect(child, seen);
    }

    private static void Walk(object? value, HashSet<object> original, string path)
    {
        if (value is null || IsImmutable(value.GetType()))
            return;
        Assert.False(original.Contains(value), $"{path} ({value.GetType().Name}) is the original's instance");
        var i = 0;
        foreach (var child in Children(value))
            Walk(child, original, $"{path}/{i++}");
    }

    private static IEnumerable<object?> Children(object value)
    {
        if (value is IDictionary map)
        {
            foreach (DictionaryEntry entry in map)
                yield return entry.Value;
            yield break;
        }
        if (value is IEnumerable items)
        {
            foreach (var item in items)
                yield return item;
            yield break;
        }
        for (var type = value.GetType(); type is not null && type != typeof(object); type = type.BaseType)
        {
            foreach (var field in type.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly))
                yield return field.GetValue(value);
        }
    }

    private static bool IsImmutable(Type type) => type.IsPrimitive || type.IsEnum || type == typeof(string) || type == typeof(Uri)
        || type == typeof(decimal) || type == typeof(DateTime) || type == typeof(DateTimeOffset) || type == typeof(TimeSpan) || type == typeof(Guid)
        || type.IsPointer || typeof(Delegate).IsAssignableFrom(type) || type == typeof(RuntimeHelpers);
}
