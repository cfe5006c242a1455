using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.MapReduce;

/// <summary>
/// The shape of a map/reduce index's results: a definition whose fields are the group keys and the aggregates (what
/// queries filter and sort on), and the JSON of one group's result.
/// </summary>
internal static class ReduceResults
{
    /// <summary>The definition queries are parsed and results indexed by: one field per group key (as mapped) and per aggregate.</summary>
    public static IndexDefinition Definition(IndexDefinition source)
    {
        var reduce = source.Reduce!;
        var fields = new List<IndexFieldDefinition>();
        foreach (var key in reduce.GroupBy)
        {
            var mapped = source.FindField(key)!;
            // Group keys sort as strings unless declared otherwise: a group's key is one value, so it always can.
            var sort = mapped.Sort == FieldSort.None && mapped.Analysis == FieldAnalysis.Exact ? FieldSort.String : mapped.Sort;
            fields.Add(new IndexFieldDefinition { Name = key, Path = key, Analysis = mapped.Analysis, Sort = sort });
        }
        foreach (var aggregate in reduce.Aggregates)
            fields.Add(new IndexFieldDefinition { Name = aggregate.Name, Path = aggregate.Name, Sort = SortOf(source, aggregate) });
        return new IndexDefinition { Name = source.Name, Fields = fields };
    }

    private static FieldSort SortOf(IndexDefinition source, AggregateDefinition aggregate) => aggregate.Function switch
    {
        ReduceFunction.Count => FieldSort.Long,
        ReduceFunction.Average => FieldSort.Double,
        _ => source.FindField(aggregate.Field!)!.Sort,
    };

    /// <summary>A group's result as JSON: its key values (numbers for numeric keys) and its aggregates (null where a Min, Max or Average has no values).</summary>
    public static byte[] Json(IndexDefinition source, ReduceMapper mapper, string?[] keys, GroupState state)
    {
        var reduce = source.Reduce!;
        var buffer = new ArrayBufferWriter<byte>(128);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            for (var i = 0; i < keys.Length; i++)
            {
                var name = reduce.GroupBy[i];
                if (keys[i] is not { } key)
                    writer.WriteNull(name);
                else if (source.FindField(name)!.IsNumeric)
                    writer.WriteNumber(name, Normalize(decimal.Parse(key, NumberStyles.Float, CultureInfo.InvariantCulture)));
                else
                    writer.WriteString(name, key);
            }
            foreach (var aggregate in reduce.Aggregates)
            {
                if (aggregate.Function == ReduceFunction.Count)
                {
                    writer.WriteNumber(aggregate.Name, state.Count);
                    continue;
                }
                var input = IndexOf(mapper.ValueFields, aggregate.Field!);
                decimal? value = aggregate.Function switch
                {
                    ReduceFunction.Sum => state.Sums[input],
                    ReduceFunction.Min => state.Mins[input],
                    ReduceFunction.Max => state.Maxes[input],
                    _ => state.Counts[input] == 0 ? null : state.Sums[input] / state.Counts[input],
                };
                if (value is { } number)
                    writer.WriteNumber(aggregate.Name, Normalize(number));
                else
                    writer.WriteNull(aggregate.Name);
            }
            writer.WriteEndObject();
        }
        return buffer.WrittenSpan.ToArray();
    }

    private static int IndexOf(IReadOnlyList<string> names, string name)
    {
        for (var i = 0; i < names.Count; i++)
        {
            if (names[i] == name)
                return i;
        }
        throw new InvalidOperationException($"'{name}' is not an aggregated field.");
    }

    /// <summary>Drops trailing zeros (1.50 -> 1.5), so equal values are written alike however they were summed.</summary>
    private static decimal Normalize(decimal value) => value / 1.000000000000000000000000000000000m;

    /// <summary>Metadata of every result: none.</summary>
    public static ReadOnlySpan<byte> Metadata => "{}"u8;

    public static string Text(ReadOnlySpan<byte> json) => Encoding.UTF8.GetString(json);
}
