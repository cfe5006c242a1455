using Newtonsoft.Json;
using Newtonsoft.Json.Serialization;
using RavenLite.Client.Copying;

namespace RavenLite.Client.Tests.Copying;

/// <summary>
/// The differential test of the copier: for random graphs of many shapes, under several serializer settings, a copy of
/// a deserialized original serializes exactly as deserializing the same JSON again does, shares no mutable object with
/// the original, and changing it leaves the original as it was; the compiled comparer agrees with comparing JSON.
/// </summary>
public sealed class EntityCopierTests
{
    private const int GraphsPerShape = 150;

    public static TheoryData<string, Type> Shapes()
    {
        var data = new TheoryData<string, Type>();
        foreach (var settings in SettingsByName.Keys)
        {
            foreach (var type in new[] { typeof(Leaves), typeof(Graph), typeof(Node), typeof(Mixed), typeof(Prefilled) })
                data.Add(settings, type);
        }
        return data;
    }

    private static readonly Dictionary<string, JsonSerializerSettings> SettingsByName = new()
    {
        ["defaults"] = new JsonSerializerSettings(),
        ["camelCase, nulls and defaults left out"] = new JsonSerializerSettings
        {
            ContractResolver = new CamelCasePropertyNamesContractResolver(),
            NullValueHandling = NullValueHandling.Ignore,
            DefaultValueHandling = DefaultValueHandling.Ignore,
        },
        ["replace created objects, UTC dates"] = new JsonSerializerSettings
        {
            ObjectCreationHandling = ObjectCreationHandling.Replace,
            DateTimeZoneHandling = DateTimeZoneHandling.Utc,
        },
    };

    [Theory]
    [MemberData(nameof(Shapes))]
    public void A_copy_of_a_deserialized_graph_equals_deserializing_its_JSON_again_and_shares_nothing_mutable(string settingsName, Type type)
    {
        var settings = SettingsByName[settingsName];
        var copier = new EntityCopiers(settings).For(type);
        Assert.NotNull(copier);
        for (var seed = 0; seed < GraphsPerShape; seed++)
        {
            var json = JsonConvert.SerializeObject(new GraphGenerator(seed).Create(type), settings);
            var original = JsonConvert.DeserializeObject(json, type, settings)!;
            var originalJson = JsonConvert.SerializeObject(original, settings);
            var copy = copier.Copy(original);

            Assert.Equal(type, copy.GetType());
            Assert.Equal(JsonConvert.SerializeObject(JsonConvert.DeserializeObject(json, type, settings), settings), JsonConvert.SerializeObject(copy, settings));
            GraphAssert.SharesNothingMutable(copy, original);
            Assert.True(copier.Same(copy, original), $"seed {seed}: a fresh copy should compare the same");

            Mutate(copy, new Random(seed));
            Assert.Equal(originalJson, JsonConvert.SerializeObject(original, settings));
        }
    }

    [Theory]
    [MemberData(nameof(Shapes))]
    public void The_compiled_comparer_says_same_exactly_when_the_JSON_is_the_same(string settingsName, Type type)
    {
        var settings = SettingsByName[settingsName];
        var copier = new EntityCopiers(settings).For(type)!;
        var differences = 0;
        for (var seed = 0; seed < GraphsPerShape; seed++)
        {
            var original = JsonConvert.DeserializeObject(JsonConvert.SerializeObject(new GraphGenerator(seed).Create(type), settings), type, settings)!;
            // Half the time a changed copy of the original, half the time another random graph.
            var current = seed % 2 == 0 ? copier.Copy(original) : JsonConvert.DeserializeObject(
                JsonConvert.SerializeObject(new GraphGenerator(seed + 100_000).Create(type), settings), type, settings)!;
            if (seed % 2 == 0)
                Mutate(current, new Random(seed));
            var sameJson = JsonConvert.SerializeObject(current, settings) == JsonConvert.SerializeObject(original, settings);
            differences += sameJson ? 0 : 1;
            Assert.Equal(sameJson, copier.Same(current, original));
        }
        Assert.InRange(differences, GraphsPerShape / 4, GraphsPerShape);
    }

    /// <summary>Changes one random writable spot somewhere in the graph (or adds to, or clears, a collection).</summary>
    private static void Mutate(object root, Random random)
    {
        var generator = new GraphGenerator(random.Next());
        object target = root;
        for (var depth = 0; depth < 3; depth++)
        {
            var nested = GraphGenerator.Members(target.GetType()).Select(m => Get(m, target))
                .Where(v => v is not null && v is not string && !v.GetType().IsValueType && v is not Uri && v is not System.Collections.IEnumerable).ToList();
            if (nested.Count == 0 || random.Next(2) == 0)
                break;
            target = nested[random.Next(nested.Count)]!;
        }
        var collections = GraphGenerator.Members(target.GetType()).Select(m => Get(m, target)).OfType<System.Collections.IList>().Where(l => !l.IsFixedSize).ToList();
        if (collections.Count > 0 && random.Next(3) == 0)
        {
            var list = collections[random.Next(collections.Count)];
            if (list.Count > 0)
                list.RemoveAt(0);
            else
                list.Add(generator.NewValue(list.GetType().GetGenericArguments()[0]));
            return;
        }
        var members = GraphGenerator.Members(target.GetType()).ToList();
        var member = members[random.Next(members.Count)];
        var type = member is System.Reflection.PropertyInfo p ? p.PropertyType : ((System.Reflection.FieldInfo)member).FieldType;
        Set(member, target, Different(Get(member, target), type, generator));
    }

    private static object? Different(object? current, Type type, GraphGenerator generator) => current switch
    {
        string text => text + "!",
        int number => number + 1,
        long number => number + 1,
        double number => number + 0.5,
        decimal number => number + 1m,
        bool flag => !flag,
        DateTime moment => moment.AddDays(1),
        null when type == typeof(string) => "now set",
        null => generator.NewValue(type),
        _ when type.IsValueType && Nullable.GetUnderlyingType(type) is null => current,
        _ => null,
    };

    private static object? Get(System.Reflection.MemberInfo member, object target) =>
        member is System.Reflection.PropertyInfo p ? p.GetValue(target) : ((System.Reflection.FieldInfo)member).GetValue(target);

    private static void Set(System.Reflection.MemberInfo member, object target, object? value)
    {
        if (member is System.Reflection.PropertyInfo p)
            p.SetValue(target, value);
        else
            ((System.Reflection.FieldInfo)member).SetValue(target, value);
    }
}
