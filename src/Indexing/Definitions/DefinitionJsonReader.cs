using System.Text.Json;

namespace RavenLite.Indexing.Definitions;

/// <summary>Turns definition JSON into an <see cref="IndexDefinition"/>, naming the first thing that is wrong.</summary>
internal static class DefinitionJsonReader
{
    public static IndexDefinition Read(JsonElement root)
    {
        RequireKind(root, JsonValueKind.Object, "The index definition");
        string? name = null;
        string? entityName = null;
        List<IndexFieldDefinition>? fields = null;
        ReduceDefinition? reduce = null;
        foreach (var property in Properties(root, "The index definition"))
        {
            switch (property.Name.ToUpperInvariant())
            {
                case "NAME":
                    name = ReadString(property.Value, "Name");
                    break;
                case "ENTITYNAME":
                    entityName = property.Value.ValueKind == JsonValueKind.Null ? null : ReadString(property.Value, "EntityName");
                    break;
                case "FIELDS":
                    fields = ReadFields(property.Value);
                    break;
                case "REDUCE":
                    reduce = property.Value.ValueKind == JsonValueKind.Null ? null : ReadReduce(property.Value);
                    break;
                default:
                    throw Invalid($"Unknown property '{property.Name}' in the index definition; expected Name, EntityName, Fields and Reduce.");
            }
        }
        return new IndexDefinition
        {
            Name = name ?? throw Invalid("The index definition has no Name."),
            EntityName = entityName,
            Fields = fields ?? throw Invalid("The index definition has no Fields; an index needs at least one field."),
            Reduce = reduce,
        };
    }

    private static ReduceDefinition ReadReduce(JsonElement element)
    {
        RequireKind(element, JsonValueKind.Object, "Reduce");
        List<string>? groupBy = null;
        List<AggregateDefinition>? aggregates = null;
        foreach (var property in Properties(element, "Reduce"))
        {
            switch (property.Name.ToUpperInvariant())
            {
                case "GROUPBY":
                    RequireKind(property.Value, JsonValueKind.Array, "Reduce.GroupBy");
                    groupBy = [];
                    foreach (var item in property.Value.EnumerateArray())
                        groupBy.Add(ReadString(item, $"Reduce.GroupBy[{groupBy.Count}]"));
                    break;
                case "AGGREGATES":
                    RequireKind(property.Value, JsonValueKind.Array, "Reduce.Aggregates");
                    aggregates = [];
                    foreach (var item in property.Value.EnumerateArray())
                        aggregates.Add(ReadAggregate(item, $"Reduce.Aggregates[{aggregates.Count}]"));
                    break;
                default:
                    throw Invalid($"Unknown property '{property.Name}' in Reduce; expected GroupBy and Aggregates.");
            }
        }
        return new ReduceDefinition
        {
            GroupBy = groupBy ?? throw Invalid("Reduce has no GroupBy; name at least one mapped field to group by."),
            Aggregates = aggregates ?? throw Invalid("Reduce has no Aggregates; a reduce needs at least one (such as Count)."),
        };
    }

    private static AggregateDefinition ReadAggregate(JsonElement element, string where)
    {
        RequireKind(element, JsonValueKind.Object, where);
        string? name = null, field = null;
        ReduceFunction? function = null;
        foreach (var property in Properties(element, where))
        {
            var value = property.Value;
            switch (property.Name.ToUpperInvariant())
            {
                case "NAME": name = ReadString(value, $"{where}.Name"); break;
                case "FUNCTION": function = ReadEnum<ReduceFunction>(value, $"{where}.Function"); break;
                case "FIELD": field = value.ValueKind == JsonValueKind.Null ? null : ReadString(value, $"{where}.Field"); break;
                default:
                    throw Invalid($"Unknown property '{property.Name}' in {where}; expected Name, Function and Field.");
            }
        }
        return new AggregateDefinition
        {
            Name = name ?? throw Invalid($"{where} has no Name."),
            Function = function ?? throw Invalid($"{where} has no Function; expected one of {string.Join(", ", Enum.GetNames<ReduceFunction>())}."),
            Field = field,
        };
    }

    private static List<IndexFieldDefinition> ReadFields(JsonElement array)
    {
        RequireKind(array, JsonValueKind.Array, "Fields");
        var fields = new List<IndexFieldDefinition>();
        foreach (var item in array.EnumerateArray())
            fields.Add(ReadField(item, $"Fields[{fields.Count}]"));
        return fields;
    }

    private static IndexFieldDefinition ReadField(JsonElement element, string where)
    {
        RequireKind(element, JsonValueKind.Object, where);
        string? name = null, path = null;
        var source = FieldSource.Data;
        var analysis = FieldAnalysis.Exact;
        var sort = FieldSort.None;
        foreach (var property in Properties(element, where))
        {
            var value = property.Value;
            switch (property.Name.ToUpperInvariant())
            {
                case "NAME": name = ReadString(value, $"{where}.Name"); break;
                case "PATH": path = ReadString(value, $"{where}.Path"); break;
                case "SOURCE": source = ReadEnum<FieldSource>(value, $"{where}.Source"); break;
                case "ANALYSIS": analysis = ReadEnum<FieldAnalysis>(value, $"{where}.Analysis"); break;
                case "SORT": sort = ReadEnum<FieldSort>(value, $"{where}.Sort"); break;
                default:
                    throw Invalid($"Unknown property '{property.Name}' in {where}; expected Name, Path, Source, Analysis and Sort.");
            }
        }
        return new IndexFieldDefinition
        {
            Name = name ?? throw Invalid($"{where} has no Name."),
            Path = path ?? throw Invalid($"{where} has no Path."),
            Source = source,
            Analysis = analysis,
            Sort = sort,
        };
    }

    private static IEnumerable<JsonProperty> Properties(JsonElement element, string where)
    {
        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var property in element.EnumerateObject())
        {
            if (!seen.Add(property.Name))
                throw Invalid($"{where} has '{property.Name}' more than once.");
            yield return property;
        }
    }

    private static string ReadString(JsonElement value, string where)
    {
        RequireKind(value, JsonValueKind.String, where);
        return value.GetString()!;
    }

    private static T ReadEnum<T>(JsonElement value, string where) where T : struct, Enum
    {
        var text = ReadString(value, where);
        // Names only: Enum.TryParse would also take "3" or "1,2".
        foreach (var name in Enum.GetNames<T>())
        {
            if (string.Equals(name, text, StringComparison.OrdinalIgnoreCase))
                return Enum.Parse<T>(name);
        }
        throw Invalid($"{where} is '{text}', which is not one of {string.Join(", ", Enum.GetNames<T>())}.");
    }

    private static void RequireKind(JsonElement element, JsonValueKind kind, string what)
    {
        if (element.ValueKind != kind)
            throw Invalid($"{what} must be a JSON {kind.ToString().ToLowerInvariant()}, not {element.ValueKind.ToString().ToLowerInvariant()}.");
    }

    private static ArgumentException Invalid(string message) => new(message);
}
