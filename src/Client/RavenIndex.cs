using System.Linq.Expressions;
using System.Reflection;
using System.Text.Json;
using RavenLite.Client.Querying;
using RavenLite.Client.Serialization;

namespace RavenLite.Client;

/// <summary>
/// A static index written in C#: derive from it, set <see cref="Map"/> to the members to index
/// (<c>Map = order =&gt; new { order.Customer, order.Total, Prices = order.Lines.Select(l =&gt; l.Price) }</c>) and, for
/// word searches, <see cref="Search"/>. It compiles to the same JSON definition as one written by hand: one typed field
/// per member (named by its path, such as <c>Customer</c> or <c>Lines.Price</c>), over the documents of
/// <typeparamref name="T"/>'s collection. Deploy it with <see cref="RavenStore.ExecuteIndex"/> (or every index of an
/// assembly with <see cref="RavenStore.ExecuteIndexes"/>) and query it with <see cref="DocumentSession.Query{T, TIndex}"/>:
/// the same LINQ as a collection query, answered by this index.
/// </summary>
/// <typeparam name="T">The documents' type.</typeparam>
public abstract class RavenIndex<T> : IRavenIndex where T : class
{
    /// <summary>The index's name: the class name with <c>_</c> read as <c>/</c> (<c>Orders_ByCustomer</c> is <c>Orders/ByCustomer</c>).</summary>
    public virtual string IndexName => GetType().Name.Replace('_', '/');

    /// <summary>The members to index: a new object whose every member is a member chain of the document, or the items of a collection (<c>Select</c>).</summary>
    protected Expression<Func<T, object>>? Map { get; set; }

    /// <summary>
    /// For a map/reduce index: the names of <see cref="Map"/>'s members the results are grouped by. The members are
    /// then fields named as in <see cref="Map"/> (<c>new { order.Customer, Price = order.Lines.Select(l =&gt; l.Price) }</c>
    /// gives <c>Customer</c>, and <c>Price</c> with one map entry per line), and the index holds one result per group
    /// with <see cref="Aggregates"/>; query it with <c>session.Query&lt;TResult&gt;(IndexName)</c>.
    /// </summary>
    protected IReadOnlyList<string> GroupBy { get; set; } = [];

    /// <summary>For a map/reduce index: what each group's result holds (<see cref="IndexAggregate.Sum"/> and the others).</summary>
    protected IReadOnlyList<IndexAggregate> Aggregates { get; set; } = [];

    /// <summary>String members also analyzed for word searches (<c>Search(x =&gt; x.Notes, "terms")</c> in a query).</summary>
    protected IReadOnlyList<Expression<Func<T, object?>>> Search { get; set; } = [];

    string IRavenIndex.ToDefinitionJson(EntitySerializer serializer, StoreConventions conventions)
    {
        if (Map?.Body is not NewExpression { Arguments.Count: > 0 } created)
            throw new InvalidOperationException($"{GetType().Name}: set Map to a new object of the members to index, such as x => new {{ x.Customer, x.Total }}.");
        var translator = new TypedTranslator(serializer);
        if (GroupBy.Count > 0)
            return ToReduceJson(created, translator, conventions);
        var searched = Search.Select(field => translator.FieldPath(field)).ToHashSet(StringComparer.Ordinal);
        var paths = new List<string>();
        foreach (var argument in created.Arguments)
        {
            var path = translator.FieldPath(Expression.Lambda(argument, Map.Parameters));
            if (!paths.Contains(path, StringComparer.Ordinal))
                paths.Add(path);
        }
        foreach (var path in searched)
        {
            if (!paths.Contains(path, StringComparer.Ordinal))
                paths.Add(path);
        }
        using var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteString("Name", IndexName);
            json.WriteString("EntityName", conventions.FindEntityName(typeof(T)));
            json.WriteStartArray("Fields");
            foreach (var path in paths)
            {
                json.WriteStartObject();
                json.WriteString("Name", path);
                json.WriteString("Path", path);
                json.WriteString("Analysis", searched.Contains(path) ? "TypedSearch" : "Typed");
                json.WriteEndObject();
            }
            json.WriteEndArray();
            json.WriteEndObject();
        }
        return System.Text.Encoding.UTF8.GetString(buffer.ToArray());
    }

    private string ToReduceJson(NewExpression created, TypedTranslator translator, StoreConventions conventions)
    {
        var aggregated = Aggregates.Where(a => a.Field is not null).Select(a => a.Field!).ToHashSet(StringComparer.Ordinal);
        using var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteString("Name", IndexName);
            json.WriteString("EntityName", conventions.FindEntityName(typeof(T)));
            json.WriteStartArray("Fields");
            for (var i = 0; i < created.Arguments.Count; i++)
            {
                var name = created.Members?[i].Name ?? throw new InvalidOperationException($"{GetType().Name}: Map's members need names.");
                var (path, type) = translator.ReducePath(Expression.Lambda(created.Arguments[i], Map!.Parameters));
                json.WriteStartObject();
                json.WriteString("Name", name);
                json.WriteString("Path", path);
                if (aggregated.Contains(name))
                    json.WriteString("Sort", IsWhole(type) ? "Long" : "Double");
                json.WriteEndObject();
            }
            json.WriteEndArray();
            json.WriteStartObject("Reduce");
            json.WriteStartArray(nameof(GroupBy));
            foreach (var key in GroupBy)
                json.WriteStringValue(key);
            json.WriteEndArray();
            json.WriteStartArray(nameof(Aggregates));
            foreach (var aggregate in Aggregates)
            {
                json.WriteStartObject();
                json.WriteString("Name", aggregate.Name);
                json.WriteString("Function", aggregate.Function);
                if (aggregate.Field is not null)
                    json.WriteString("Field", aggregate.Field);
                json.WriteEndObject();
            }
            json.WriteEndArray();
            json.WriteEndObject();
            json.WriteEndObject();
        }
        return System.Text.Encoding.UTF8.GetString(buffer.ToArray());
    }

    private static bool IsWhole(Type type) =>
        (Nullable.GetUnderlyingType(type) ?? type) is var t && (t == typeof(int) || t == typeof(long) || t == typeof(short) || t == typeof(byte));
}

/// <summary>One aggregate of a map/reduce <see cref="RavenIndex{T}"/>: a result member's name, the function, and the <c>Map</c> member it reads.</summary>
public sealed class IndexAggregate
{
    private IndexAggregate(string name, string function, string? field) => (Name, Function, Field) = (name, function, field);

    /// <summary>The result member's name.</summary>
    public string Name { get; }

    /// <summary>Count, Sum, Min, Max or Average.</summary>
    public string Function { get; }

    /// <summary>The <c>Map</c> member aggregated; null for Count.</summary>
    public string? Field { get; }

    /// <summary>How many map entries the group has.</summary>
    public static IndexAggregate Count(string name) => new(name, nameof(Count), null);

    /// <summary>The sum of <paramref name="field"/>'s values (exact, decimal).</summary>
    public static IndexAggregate Sum(string name, string field) => new(name, nameof(Sum), field);

    /// <summary>The smallest of <paramref name="field"/>'s values.</summary>
    public static IndexAggregate Min(string name, string field) => new(name, nameof(Min), field);

    /// <summary>The largest of <paramref name="field"/>'s values.</summary>
    public static IndexAggregate Max(string name, string field) => new(name, nameof(Max), field);

    /// <summary>The average of <paramref name="field"/>'s values.</summary>
    public static IndexAggregate Average(string name, string field) => new(name, nameof(Average), field);
}

/// <summary>What a store needs of a <see cref="RavenIndex{T}"/> to deploy it.</summary>
internal interface IRavenIndex
{
    string IndexName { get; }

    string ToDefinitionJson(EntitySerializer serializer, StoreConventions conventions);
}
