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

    /// <summary>String members also analyzed for word searches (<c>Search(x =&gt; x.Notes, "terms")</c> in a query).</summary>
    protected IReadOnlyList<Expression<Func<T, object?>>> Search { get; set; } = [];

    string IRavenIndex.ToDefinitionJson(EntitySerializer serializer, StoreConventions conventions)
    {
        if (Map?.Body is not NewExpression { Arguments.Count: > 0 } created)
            throw new InvalidOperationException($"{GetType().Name}: set Map to a new object of the members to index, such as x => new {{ x.Customer, x.Total }}.");
        var translator = new TypedTranslator(serializer);
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
}

/// <summary>What a store needs of a <see cref="RavenIndex{T}"/> to deploy it.</summary>
internal interface IRavenIndex
{
    string IndexName { get; }

    string ToDefinitionJson(EntitySerializer serializer, StoreConventions conventions);
}
