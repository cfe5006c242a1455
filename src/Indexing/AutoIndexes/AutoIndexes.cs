using System.Security.Cryptography;
using System.Text;
using Lucene.Net.QueryParsers.Classic;
using Lucene.Net.Search;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Querying;

namespace RavenLite.Indexing.AutoIndexes;

/// <summary>
/// Indexes made on demand (RavenDB 1.0's dynamic indexes): a query of <c>dynamic/{collection}</c> is answered by an
/// auto index over that collection (entity name) holding every field the query and its sort name, each a
/// <see cref="FieldAnalysis.Typed"/> field whose path is its name. An auto index that lacks a field is widened: a new
/// one with the old fields and the new ones answers from then on (stale until it has caught up, as any new index), and
/// the narrower one is deleted once a wider one has caught up. A query naming no field is the built-in index's
/// <c>Tag</c> query. Auto indexes are ordinary indexes named <c>Auto/{collection}/By{Field}And{Field}...</c>: listed,
/// queried by name and deleted like any other.
/// </summary>
internal static class AutoIndexes
{
    /// <summary>The prefix of an index name that asks for a collection query answered by an auto index.</summary>
    public const string DynamicPrefix = "dynamic/";

    /// <summary>The prefix of auto indexes' names.</summary>
    public const string AutoPrefix = "Auto/";

    public static bool IsDynamic(string indexName) => indexName.StartsWith(DynamicPrefix, StringComparison.OrdinalIgnoreCase);

    /// <summary>The collection a <c>dynamic/{collection}</c> name asks for.</summary>
    /// <exception cref="ArgumentException">No collection after the prefix.</exception>
    public static string Collection(string indexName)
    {
        var collection = indexName[DynamicPrefix.Length..];
        if (string.IsNullOrWhiteSpace(collection))
            throw new ArgumentException($"'{indexName}' names no collection: write dynamic/{{collection}}, such as dynamic/Orders.", nameof(indexName));
        return collection;
    }

    /// <summary>The fields a query and its sort read, by name (typed suffixes taken off), in order of first use.</summary>
    /// <exception cref="QueryException">The query cannot be parsed, or names a field an auto index cannot have.</exception>
    /// <param name="query">The query text.</param>
    /// <param name="sortBy">The sort fields (and an aggregated field), whose fields the index needs too.</param>
    /// <param name="searched">Receives the fields a word search (<c>@text</c>) reads.</param>
    public static List<string> FieldsOf(string? query, IReadOnlyList<string>? sortBy, HashSet<string> searched)
    {
        var fields = new List<string>();
        if (!string.IsNullOrWhiteSpace(query))
        {
            QueryLimits.Check(query);
            var collector = new FieldCollector(fields, searched);
            try
            {
                collector.Parse(query);
            }
            catch (ParseException ex)
            {
                throw new QueryException(query, 0, ex.Message.Split('\n')[0].Trim());
            }
            if (collector.Problem is { } problem)
                throw new QueryException(query, 0, problem);
        }
        foreach (var sort in sortBy ?? [])
        {
            var name = sort?.Trim().TrimStart('-', '+') ?? "";
            if (name.Length > 0 && Add(fields, TypedValues.Split(name).Field) is { } problem)
                throw new ArgumentException($"SortBy: {problem}.", nameof(sortBy));
        }
        return fields;
    }

    /// <summary>Adds <paramref name="field"/> once; returns why it cannot be an auto index's field, or null.</summary>
    private static string? Add(List<string> fields, string field)
    {
        if (field.Length == 0 || !IndexDefinition.IsFieldName(field) || field.Length > 100)
            return $"'{field}' cannot be a field of an auto index: field names are letters, digits, '_' and '.', starting with a letter or '_', at most 100 characters";
        if (!fields.Contains(field, StringComparer.Ordinal))
            fields.Add(field);
        return null;
    }

    /// <summary>The name of the auto index over <paramref name="collection"/> with <paramref name="fields"/>.</summary>
    public static string NameFor(string collection, IReadOnlyList<string> fields)
    {
        var safe = new StringBuilder();
        foreach (var c in collection)
            safe.Append(c is >= 'a' and <= 'z' or >= 'A' and <= 'Z' or >= '0' and <= '9' or '_' or '-' or '.' ? c : '_');
        var name = $"{AutoPrefix}{safe}/By{string.Join("And", fields)}";
        if (name.Length <= IndexName.MaxLength && safe.ToString() == collection && !name.Contains("..", StringComparison.Ordinal))
            return name;
        // Too long, or a collection name an index name cannot hold: a hash keeps distinct ones apart.
        var hash = Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(collection + "\n" + string.Join("\n", fields))))[..16];
        var head = $"{AutoPrefix}{safe.ToString().Replace("..", "_", StringComparison.Ordinal)}";
        if (head.Length > 40)
            head = head[..40];
        return $"{head.TrimEnd('.')}/By{hash}";
    }

    /// <summary>Whether <paramref name="definition"/> is an auto index of <paramref name="collection"/>.</summary>
    public static bool IsAutoIndexOf(IndexDefinition definition, string collection) =>
        definition.Name.StartsWith(AutoPrefix, StringComparison.OrdinalIgnoreCase)
        && string.Equals(definition.EntityName, collection, StringComparison.Ordinal)
        && definition.Fields.All(field => field.Analysis is FieldAnalysis.Typed or FieldAnalysis.TypedSearch && field.Source == FieldSource.Data
                                          && string.Equals(field.Name, field.Path, StringComparison.Ordinal));

    /// <summary>Whether the definition has every field, analyzed for word searches where <paramref name="searched"/> asks.</summary>
    public static bool Covers(IndexDefinition definition, IReadOnlyList<string> fields, IReadOnlySet<string>? searched = null) =>
        fields.All(field => definition.FindField(field) is { } found
                            && (searched is null || !searched.Contains(field) || found.Analysis == FieldAnalysis.TypedSearch));

    public static IndexDefinition Define(string collection, IReadOnlyList<string> fields, IReadOnlySet<string> searched) => new()
    {
        Name = NameFor(collection, [.. fields.Select(field => searched.Contains(field) ? field + "Text" : field)]),
        EntityName = collection,
        Fields = [.. fields.Select(field => new IndexFieldDefinition
        {
            Name = field,
            Path = field,
            Analysis = searched.Contains(field) ? FieldAnalysis.TypedSearch : FieldAnalysis.Typed,
        })],
    };

    /// <summary>The built-in index's query for a collection query that names no field.</summary>
    public static string CollectionQuery(string collection, string? query)
    {
        var tag = $"Tag:\"{collection.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal)}\"";
        return string.IsNullOrWhiteSpace(query) ? tag : $"{tag} AND ({query})";
    }

    /// <summary>Lucene's parser, used only to find the fields a query names.</summary>
    private sealed class FieldCollector : QueryParser
    {
        private readonly List<string> _fields;
        private readonly HashSet<string> _searched;

        public FieldCollector(List<string> fields, HashSet<string> searched)
            : base(LuceneSettings.Version, null, FullTextAnalyzer.Instance)
        {
            _fields = fields;
            _searched = searched;
            AllowLeadingWildcard = true;
        }

        public string? Problem { get; private set; }

        private BooleanQuery Seen(string? field)
        {
            if (field is null)
                Problem ??= "a term needs a field (there is no default field): write Field:term";
            else if (field != "*")
            {
                var (name, suffix) = TypedValues.Split(field);
                Problem ??= Add(_fields, name);
                if (suffix == TypedValues.Search)
                    _searched.Add(name);
            }
            return new BooleanQuery();
        }

        protected override Query GetFieldQuery(string field, string queryText, bool quoted) => Seen(field);
        protected override Query GetFieldQuery(string field, string queryText, int slop) => Seen(field);
        protected override Query GetRangeQuery(string field, string part1, string part2, bool startInclusive, bool endInclusive) => Seen(field);
        protected override Query GetPrefixQuery(string field, string termStr) => Seen(field);
        protected override Query GetWildcardQuery(string field, string termStr) => Seen(field);
        protected override Query GetFuzzyQuery(string field, string termStr, float minSimilarity) => Seen(field);
        protected override Query GetRegexpQuery(string field, string termStr) => Seen(field);
    }
}
