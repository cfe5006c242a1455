using System.Reflection;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Newtonsoft.Json.Serialization;

namespace RavenLite.Client.Copying;

/// <summary>
/// Decides, once per entity type, whether a copy made member by member equals what deserializing the entity's JSON
/// gives, and plans that copy; otherwise names the first reason it cannot (the type then falls back to
/// deserialization). It follows Newtonsoft's own contract for the store's settings, so the members it copies are the
/// ones deserialization sets.
/// </summary>
/// <remarks>
/// A deserialized entity is a tree (Newtonsoft never creates shared or cyclic references without reference
/// handling), so a type that refers to itself (a tree node) is planned like any other: the originals the copier
/// copies come from deserialization and have no cycles.
/// </remarks>
internal sealed partial class CopyPlanner(JsonSerializer serializer)
{
    private readonly Dictionary<Type, ObjectPlan?> _plans = [];
    private readonly HashSet<Type> _planning = [];
    private string? _reason;

    /// <summary>The plans of <paramref name="root"/> and every class it reaches; null with <paramref name="reason"/> when it cannot be copied.</summary>
    public IReadOnlyDictionary<Type, ObjectPlan?>? Plan(Type root, out string? reason)
    {
        if (serializer.TypeNameHandling != TypeNameHandling.None)
            reason = "the serializer settings write type names (TypeNameHandling)";
        else if (serializer.PreserveReferencesHandling != PreserveReferencesHandling.None)
            reason = "the serializer settings preserve references (shared or cyclic objects)";
        else if (PlanObject(root, root.Name) is null)
            reason = _reason;
        else
            reason = null;
        return reason is null ? _plans : null;
    }

    private ObjectPlan? PlanObject(Type type, string path)
    {
        if (_plans.TryGetValue(type, out var planned) || _planning.Contains(type))
            return planned ?? Placeholder(type);
        if (type.IsAbstract || type.IsInterface || !type.IsClass || type == typeof(object))
            return Refuse($"{path} is declared as {type}, which deserialization does not create as such");
        if (typeof(Delegate).IsAssignableFrom(type))
            return Refuse($"{path} is a delegate");
        if (typeof(JToken).IsAssignableFrom(type) || type.Assembly == typeof(object).Assembly)
            return Refuse($"{path} is a {type}, which the copier does not know");
        if (ConverterFor(type) is { } converter)
            return Refuse($"{path} ({type}) is read by the converter {converter.GetType().Name}");
        if (serializer.ContractResolver.ResolveContract(type) is not JsonObjectContract contract)
            return Refuse($"{type} is not serialized as a JSON object of its members");
        if (ContractProblem(contract) is { } problem)
            return Refuse($"{type} {problem}");
        _planning.Add(type);
        var members = new List<MemberPlan>();
        foreach (var property in contract.Properties)
        {
            if (property.Ignored)
                continue;
            var memberPath = path + "." + property.UnderlyingName;
            if (PropertyProblem(property) is { } propertyProblem)
                return Refuse($"{memberPath} {propertyProblem}");
            if (FindMember(property) is not { } member)
                return Refuse($"{memberPath} is not one field or property the copier can find");
            if (Shape(property.PropertyType!, memberPath) is not { } shape)
                return null;
            if (property.Writable && !IsWritable(member))
                return Refuse($"{memberPath} is read-only state that deserialization sets");
            if (!property.Writable)
            {
                // A get-only leaf is computed or fixed by the constructor: the copy's own is what deserializing gives.
                if (shape is LeafShape)
                    continue;
                return Refuse($"{memberPath} is get-only, and deserialization fills it in place");
            }
            members.Add(new MemberPlan(member, shape));
        }
        _planning.Remove(type);
        var plan = new ObjectPlan(type, members);
        _plans[type] = plan;
        return plan;
    }

    /// <summary>A class still being planned (a type that refers to itself): its plan is completed before any copy runs.</summary>
    private static ObjectPlan Placeholder(Type type) => new(type, []);

    private ValueShape? Shape(Type type, string path)
    {
        if (ConverterFor(type) is { } converter)
            return RefuseShape($"{path} ({type}) is read by the converter {converter.GetType().Name}");
        if (LeafTypes.IsLeaf(type))
            return new LeafShape(type);
        if (type.IsArray)
        {
            if (type.GetArrayRank() != 1)
                return RefuseShape($"{path} is a multi-dimensional array");
            return Shape(type.GetElementType()!, path + "[]") is { } element ? new ArrayShape(type, element) : null;
        }
        if (type.IsGenericType)
        {
            var definition = type.GetGenericTypeDefinition();
            var arguments = type.GetGenericArguments();
            if (definition == typeof(List<>))
                return Shape(arguments[0], path + "[]") is { } element ? new ListShape(type, element) : null;
            if (definition == typeof(HashSet<>))
                return LeafTypes.IsLeaf(arguments[0]) ? new SetShape(type, arguments[0]) : RefuseShape($"{path} is a set of mutable objects");
            if (definition == typeof(Dictionary<,>))
            {
                if (!LeafTypes.IsLeaf(arguments[0]))
                    return RefuseShape($"{path} is a dictionary whose keys are not plain values");
                return Shape(arguments[1], path + "{}") is { } value ? new DictionaryShape(type, arguments[0], value) : null;
            }
        }
        if (type.IsValueType)
            return RefuseShape($"{path} is a struct ({type}), which the copier does not know");
        if (typeof(System.Collections.IEnumerable).IsAssignableFrom(type) && !type.IsArray)
            return RefuseShape($"{path} is a collection type ({type}) other than T[], List<T>, HashSet<T> and Dictionary<TKey,TValue>");
        return PlanObject(type, path) is null ? null : new ObjectShape(type);
    }

    private JsonConverter? ConverterFor(Type type)
    {
        foreach (var converter in serializer.Converters)
        {
            if (converter.CanConvert(type))
                return converter;
        }
        return serializer.ContractResolver.ResolveContract(type).Converter;
    }

    private ObjectPlan? Refuse(string reason)
    {
        _reason ??= reason;
        return null;
    }

    private ValueShape? RefuseShape(string reason)
    {
        _reason ??= reason;
        return null;
    }
}
