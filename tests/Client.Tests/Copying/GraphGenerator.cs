using System.Collections;
using System.Reflection;
using Newtonsoft.Json;

namespace RavenLite.Client.Tests.Copying;

/// <summary>
/// Random object graphs of any of the test shapes: every writable member set from a seeded <see cref="Random"/>, with
/// nulls, empty and nested collections, deeper levels thinning out. Small value ranges make equal values likely.
/// </summary>
internal sealed class GraphGenerator(int seed)
{
    private readonly Random _random = new(seed);

    public object Create(Type type, int depth = 0)
    {
        var instance = Activator.CreateInstance(type)!;
        foreach (var member in Members(type))
        {
            var memberType = member is PropertyInfo p ? p.PropertyType : ((FieldInfo)member).FieldType;
            var value = Value(memberType, depth + 1);
            if (member is PropertyInfo property)
                property.SetValue(instance, value);
            else
                ((FieldInfo)member).SetValue(instance, value);
        }
        if (instance is Mixed mixed)
            mixed.SetSecret(Word());
        return instance;
    }

    /// <summary>A random value of <paramref name="type"/>, possibly null, as a member two levels down would get.</summary>
    public object? NewValue(Type type) => Value(type, 2);

    /// <summary>The writable, stored members of <paramref name="type"/> (public setters and fields; not [JsonIgnore]).</summary>
    public static IEnumerable<MemberInfo> Members(Type type) =>
        type.GetMembers(BindingFlags.Public | BindingFlags.Instance)
            .Where(m => m.GetCustomAttribute<JsonIgnoreAttribute>() is null)
            .Where(m => m is FieldInfo { IsInitOnly: false } || m is PropertyInfo { SetMethod.IsPublic: true });

    private object? Value(Type type, int depth)
    {
        var nullable = !type.IsValueType || Nullable.GetUnderlyingType(type) is not null;
        if (nullable && _random.Next(6) == 0)
            return null;
        type = Nullable.GetUnderlyingType(type) ?? type;
        if (type == typeof(string))
            return Word();
        if (type == typeof(int))
            return _random.Next(-3, 4);
        if (type == typeof(long))
            return _random.NextInt64(-3, 4) * 1_000_000_007L;
        if (type == typeof(double))
            return _random.Next(4) == 0 ? 0.0 : Math.Round((_random.NextDouble() - 0.5) * 1000, _random.Next(6));
        if (type == typeof(decimal))
            return decimal.Round((decimal)_random.NextDouble() * 100m, _random.Next(4));
        if (type == typeof(bool))
            return _random.Next(2) == 0;
        if (type == typeof(char))
            return (char)('a' + _random.Next(3));
        if (type == typeof(DateTime))
            return new DateTime(2026, 1, 1, 0, 0, 0, (DateTimeKind)_random.Next(3)).AddSeconds(_random.Next(3) * 3600.5);
        if (type == typeof(DateTimeOffset))
            return new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.FromHours(_random.Next(-2, 3))).AddMinutes(_random.Next(3));
        if (type == typeof(TimeSpan))
            return TimeSpan.FromMilliseconds(_random.Next(-5, 5) * 1500);
        if (type == typeof(Guid))
            return new Guid(_random.Next(3), 0, 0, new byte[8]);
        if (type.IsEnum)
            return Enum.GetValues(type).GetValue(_random.Next(Enum.GetValues(type).Length));
        if (type == typeof(Uri))
            return new Uri("http://example.com/" + Word());
        if (type.IsArray)
        {
            var items = Items(type.GetElementType()!, depth);
            var array = System.Array.CreateInstance(type.GetElementType()!, items.Count);
            for (var i = 0; i < items.Count; i++)
                array.SetValue(items[i], i);
            return array;
        }
        if (type.IsGenericType && type.GetGenericTypeDefinition() is var definition
            && (definition == typeof(List<>) || definition == typeof(HashSet<>)))
        {
            var collection = Activator.CreateInstance(type)!;
            var add = type.GetMethod("Add")!;
            foreach (var item in Items(type.GetGenericArguments()[0], depth))
                add.Invoke(collection, [item]);
            return collection;
        }
        if (type.IsGenericType && type.GetGenericTypeDefinition() == typeof(Dictionary<,>))
        {
            var map = (IDictionary)Activator.CreateInstance(type)!;
            var arguments = type.GetGenericArguments();
            for (var i = Count(depth); i > 0; i--)
            {
                var key = Value(arguments[0], depth);
                if (key is not null && !map.Contains(key))
                    map[key] = Value(arguments[1], depth + 1);
            }
            return map;
        }
        return depth > 3 && nullable ? null : Create(type, depth);
    }

    private List<object?> Items(Type element, int depth)
    {
        var items = new List<object?>();
        for (var i = Count(depth); i > 0; i--)
            items.Add(Value(element, depth + 1));
        return items;
    }

    private int Count(int depth) => depth > 3 ? 0 : _random.Next(4);

    private string Word() => _random.Next(5) switch
    {
        0 => "",
        1 => "é\"\\ \u263A",
        _ => "w" + _random.Next(4),
    };
}
