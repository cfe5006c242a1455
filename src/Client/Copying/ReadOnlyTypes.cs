using System.Collections.Immutable;
using System.Collections.ObjectModel;
using System.Reflection;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Newtonsoft.Json.Serialization;

namespace RavenLite.Client.Copying;

/// <summary>
/// Decides whether an entity type's deserialized instances can be handed to every session as they are, with no copy:
/// nothing in them can change. Every instance field (of the type and its bases, JSON-ignored ones too) is
/// <c>readonly</c> (<c>init</c> and get-only auto-properties, positional records) and of a read-only type: a plain value
/// (<see cref="LeafTypes"/>), another such class or struct, or a read-only collection of read-only values
/// (<c>ImmutableArray&lt;T&gt;</c>, <c>ImmutableList&lt;T&gt;</c>, ... and <c>IReadOnlyList&lt;T&gt;</c>,
/// <c>IReadOnlyCollection&lt;T&gt;</c>, <c>IReadOnlyDictionary&lt;TKey,TValue&gt;</c>, for which Newtonsoft creates a
/// <see cref="ReadOnlyCollection{T}"/> or <see cref="ReadOnlyDictionary{TKey,TValue}"/>); and every member
/// deserialization fills (a setter or a constructor parameter) is declared with such a type, so what Newtonsoft puts in
/// is read-only too. Converters, type names and references in the settings make a type not qualify.
/// </summary>
/// <remarks>
/// One instance per decision: a type that refers to itself is assumed read-only while it is being decided, which is
/// right for the root's answer (every member must qualify) but not for what was assumed along the way.
/// </remarks>
internal sealed class ReadOnlyTypes(JsonSerializer serializer)
{
    private static readonly HashSet<Type> s_readOnlyCollections =
    [
        typeof(ImmutableArray<>), typeof(ImmutableList<>), typeof(ImmutableHashSet<>), typeof(ImmutableSortedSet<>),
        typeof(ImmutableQueue<>), typeof(ImmutableStack<>), typeof(ReadOnlyCollection<>),
        typeof(ImmutableDictionary<,>), typeof(ImmutableSortedDictionary<,>), typeof(ReadOnlyDictionary<,>),
    ];

    private const BindingFlags InstanceFields = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;

    private readonly HashSet<Type> _deciding = [];

    /// <summary>Whether the instances deserialization makes of <paramref name="type"/> cannot change.</summary>
    public bool IsReadOnly(Type type) =>
        serializer.TypeNameHandling == TypeNameHandling.None
        && serializer.PreserveReferencesHandling == PreserveReferencesHandling.None
        && type.IsClass && IsReadOnlyValue(type);

    private bool IsReadOnlyValue(Type type)
    {
        if (ConverterFor(type) is not null)
            return false;
        if (LeafTypes.IsLeaf(type))
            return true;
        var underlying = Nullable.GetUnderlyingType(type) ?? type;
        if (!_deciding.Add(underlying))
            return true;
        try
        {
            return Decide(underlying);
        }
        finally
        {
            _deciding.Remove(underlying);
        }
    }

    private bool Decide(Type type)
    {
        var contract = serializer.ContractResolver.ResolveContract(type);
        if (contract.Converter is not null || contract.IsReference == true)
            return false;
        if (contract is JsonArrayContract array)
            return IsReadOnlyCollection(array.CreatedType) && array.ItemConverter is null && IsReadOnlyValue(array.CollectionItemType ?? typeof(object));
        if (contract is JsonDictionaryContract dictionary)
            return IsReadOnlyCollection(dictionary.CreatedType) && dictionary.ItemConverter is null
                && IsReadOnlyValue(dictionary.DictionaryKeyType ?? typeof(object)) && IsReadOnlyValue(dictionary.DictionaryValueType ?? typeof(object));
        if (contract is not JsonObjectContract objectContract || type.IsAbstract || type.IsInterface || type == typeof(object)
            || typeof(Delegate).IsAssignableFrom(type) || typeof(JToken).IsAssignableFrom(type)
            || type.Assembly == typeof(object).Assembly || contract.CreatedType != type)
            return false;
        if (objectContract.ExtensionDataSetter is not null || objectContract.ItemConverter is not null
            || objectContract.ItemIsReference == true || objectContract.ItemTypeNameHandling is { } names && names != TypeNameHandling.None)
            return false;
        return FieldsAreReadOnly(type) && FilledMembersAreReadOnly(objectContract);
    }

    private static bool IsReadOnlyCollection(Type created) =>
        created.IsGenericType && s_readOnlyCollections.Contains(created.GetGenericTypeDefinition());

    /// <summary>Every instance field of the type and its bases is readonly and of a read-only type.</summary>
    private bool FieldsAreReadOnly(Type type)
    {
        for (var level = type; level is not null && level != typeof(object) && level != typeof(ValueType); level = level.BaseType)
        {
            foreach (var field in level.GetFields(InstanceFields))
            {
                if (!field.IsInitOnly || !IsReadOnlyValue(field.FieldType))
                    return false;
            }
        }
        return true;
    }

    /// <summary>What deserialization puts into the instance (setters and constructor parameters) is declared read-only.</summary>
    private bool FilledMembersAreReadOnly(JsonObjectContract contract)
    {
        foreach (var property in contract.Properties.Concat(contract.CreatorParameters))
        {
            if (property.Ignored)
                continue;
            if (property.Converter is not null || property.ItemConverter is not null || property.IsReference == true
                || property.ItemIsReference == true
                || property.TypeNameHandling is { } names && names != TypeNameHandling.None
                || property.ItemTypeNameHandling is { } items && items != TypeNameHandling.None)
                return false;
            if (property.PropertyType is not { } declared || !IsReadOnlyValue(declared))
                return false;
        }
        return true;
    }

    private JsonConverter? ConverterFor(Type type)
    {
        foreach (var converter in serializer.Converters)
        {
            if (converter.CanConvert(type))
                return converter;
        }
        return null;
    }
}
