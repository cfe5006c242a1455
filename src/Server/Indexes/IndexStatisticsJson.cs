using System.Text.Json;
using RavenLite.Indexing;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Server.Indexes;

/// <summary>Index statistics as JSON, for <c>GET /indexes</c> and <c>GET /stats</c>.</summary>
internal static class IndexStatisticsJson
{
    /// <summary>
    /// A JSON array with one object per index: every member of <see cref="IndexStatistics"/> as it is (etags as
    /// numbers, as in <c>/stats</c>), then <c>"Definition"</c> when <paramref name="definitions"/> holds the index's.
    /// </summary>
    public static void WriteArray(Utf8JsonWriter json, IReadOnlyList<IndexStatistics> statistics, IReadOnlyList<IndexDefinition>? definitions = null)
    {
        json.WriteStartArray();
        foreach (var index in statistics)
        {
            json.WriteStartObject();
            foreach (var member in JsonSerializer.SerializeToElement(index).EnumerateObject())
                member.WriteTo(json);
            if (definitions?.FirstOrDefault(d => d.Name.Equals(index.Name, StringComparison.OrdinalIgnoreCase)) is { } definition)
            {
                json.WritePropertyName("Definition");
                json.WriteRawValue(definition.ToJson(), skipInputValidation: true);
            }
            json.WriteEndObject();
        }
        json.WriteEndArray();
    }
}
