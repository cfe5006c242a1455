using System.Buffers;
using System.Text;
using System.Text.Json;

namespace RavenLite.Indexing.Definitions;

public sealed partial class IndexDefinition
{
    private static readonly JsonDocumentOptions s_jsonOptions = new() { MaxDepth = 16 };

    /// <summary>
    /// Reads a definition from JSON and checks it (<see cref="Validate"/>). Property names and enum values are
    /// matched case-insensitively; unknown properties are refused so a typo is not silently ignored.
    /// </summary>
    /// <exception cref="ArgumentException">The JSON is malformed or the definition is invalid.</exception>
    public static IndexDefinition FromJson(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(json, s_jsonOptions);
        }
        catch (JsonException ex)
        {
            throw new ArgumentException($"The index definition is not valid JSON: {ex.Message}", nameof(json), ex);
        }
        using (document)
        {
            var definition = DefinitionJsonReader.Read(document.RootElement);
            definition.Validate();
            return definition;
        }
    }

    /// <summary>The definition as JSON, with every field property spelled out.</summary>
    public string ToJson() => ToJson(includeName: true);

    private string ToJson(bool includeName)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            if (includeName)
                writer.WriteString(nameof(Name), Name);
            if (EntityName is not null)
                writer.WriteString(nameof(EntityName), EntityName);
            writer.WriteStartArray(nameof(Fields));
            foreach (var field in Fields)
            {
                writer.WriteStartObject();
                writer.WriteString(nameof(field.Name), field.Name);
                writer.WriteString(nameof(field.Path), field.Path);
                writer.WriteString(nameof(field.Source), field.Source.ToString());
                writer.WriteString(nameof(field.Analysis), field.Analysis.ToString());
                writer.WriteString(nameof(field.Sort), field.Sort.ToString());
                writer.WriteEndObject();
            }
            writer.WriteEndArray();
            if (Reduce is { } reduce)
                WriteReduce(writer, reduce);
            writer.WriteEndObject();
        }
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private static void WriteReduce(Utf8JsonWriter writer, ReduceDefinition reduce)
    {
        writer.WriteStartObject(nameof(Reduce));
        writer.WriteStartArray(nameof(reduce.GroupBy));
        foreach (var key in reduce.GroupBy)
            writer.WriteStringValue(key);
        writer.WriteEndArray();
        writer.WriteStartArray(nameof(reduce.Aggregates));
        foreach (var aggregate in reduce.Aggregates)
        {
            writer.WriteStartObject();
            writer.WriteString(nameof(aggregate.Name), aggregate.Name);
            writer.WriteString(nameof(aggregate.Function), aggregate.Function.ToString());
            if (aggregate.Field is not null)
                writer.WriteString(nameof(aggregate.Field), aggregate.Field);
            writer.WriteEndObject();
        }
        writer.WriteEndArray();
        writer.WriteEndObject();
    }
}
