using System.Reflection;
using Newtonsoft.Json.Serialization;

namespace RavenLite.Client.Copying;

internal sealed partial class CopyPlanner
{
    /// <summary>What in a class's contract makes deserialization do more than create it and set its members; null when nothing.</summary>
    private static string? ContractProblem(JsonObjectContract contract)
    {
        if (contract.OverrideCreator is not null || contract.DefaultCreator is null || contract.DefaultCreatorNonPublic
            || contract.UnderlyingType.GetConstructor(Type.EmptyTypes) is null)
            return "has no public parameterless constructor that deserialization uses";
        if (contract.OnDeserializedCallbacks.Count > 0 || contract.OnDeserializingCallbacks.Count > 0 || contract.OnErrorCallbacks.Count > 0)
            return "has [OnDeserializing], [OnDeserialized] or [OnError] callbacks";
        if (contract.ExtensionDataSetter is not null || contract.ExtensionDataGetter is not null)
            return "has [JsonExtensionData]";
        if (contract.IsReference == true || contract.ItemIsReference == true)
            return "is serialized by reference";
        if (contract.ItemTypeNameHandling is { } names && names != Newtonsoft.Json.TypeNameHandling.None)
            return "writes type names";
        if (contract.ItemConverter is not null)
            return "has an item converter";
        return null;
    }

    private static string? PropertyProblem(JsonProperty property)
    {
        if (property.Converter is not null || property.ItemConverter is not null)
            return "has a [JsonConverter]";
        if (property.TypeNameHandling is { } names && names != Newtonsoft.Json.TypeNameHandling.None
            || property.ItemTypeNameHandling is { } items && items != Newtonsoft.Json.TypeNameHandling.None)
            return "writes type names";
        if (property.IsReference == true || property.ItemIsReference == true)
            return "is serialized by reference";
        if (property.ShouldDeserialize is not null || property.SetIsSpecified is not null)
            return "is deserialized conditionally (ShouldDeserialize or an ...Specified member)";
        if (!property.Readable)
            return "cannot be read";
        if (property.PropertyType is null || property.DeclaringType is null || property.UnderlyingName is null)
            return "has no member behind it";
        return null;
    }

    /// <summary>The field or property behind a contract property (of any visibility, as Newtonsoft may use a non-public one).</summary>
    private static MemberInfo? FindMember(JsonProperty property)
    {
        MemberInfo? found = null;
        for (var type = property.DeclaringType; type is not null && found is null; type = type.BaseType)
        {
            foreach (var member in type.GetMember(property.UnderlyingName!, MemberTypes.Field | MemberTypes.Property,
                         BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly))
            {
                var memberType = member switch
                {
                    FieldInfo field => field.FieldType,
                    PropertyInfo p when p.GetIndexParameters().Length == 0 && p.GetMethod is not null => p.PropertyType,
                    _ => null,
                };
                if (memberType != property.PropertyType)
                    continue;
                if (found is not null)
                    return null;
                found = member;
            }
        }
        return found;
    }

    private static bool IsWritable(MemberInfo member) => member switch
    {
        FieldInfo field => !field.IsInitOnly && !field.IsLiteral,
        PropertyInfo property => property.SetMethod is not null,
        _ => false,
    };
}
