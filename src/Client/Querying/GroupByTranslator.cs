using System.Globalization;
using System.Linq.Expressions;
using System.Reflection;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using RavenLite.Client.Serialization;

namespace RavenLite.Client.Querying;

/// <summary>
/// Translates <c>GroupBy(key).Select(g =&gt; new { g.Key, Count = g.Count(), Total = g.Sum(x =&gt; x.Total) })</c> on a
/// collection query into an auto map/reduce index (its name and JSON definition) and a projection that builds each
/// result from one group's JSON. The index's name is derived from what it computes (keys and aggregates, not the
/// projection's member names), so the same shape reuses the same index. Only what the index computes exactly as
/// LINQ-to-Objects would is translated; anything else throws <see cref="NotSupportedException"/> naming the part.
/// </summary>
internal static class GroupByTranslator
{
    /// <summary>A group key part: the result field, the document path, and the member's CLR type.</summary>
    internal sealed record KeyPart(string Field, string Path, Type Type, string? Member);

    /// <summary>An aggregate the index computes: result field, function, the map field it reads (null for Count).</summary>
    internal sealed record Aggregate(string Name, string Function, string? ValueField);

    /// <summary>A map field an aggregate reads: its name, document path and whether it holds whole numbers.</summary>
    internal sealed record ValueField(string Name, string Path, bool Whole);

    /// <summary>The translated shape: the index to ask for, and how a result becomes a <c>TResult</c>.</summary>
    public sealed class Translation(string collection, string indexName, string definitionJson, Func<object?[], object?> project, ResultReader reader)
    {
        /// <summary>The collection (entity name) grouped.</summary>
        public string Collection { get; } = collection;

        public string IndexName { get; } = indexName;

        public string DefinitionJson { get; } = definitionJson;

        /// <summary>A group's result as the projection builds it, and how many documents the group has.</summary>
        public object? Project(ReadOnlyMemory<byte> data, out long count) => project(reader.Read(data, out count));
    }

    private static readonly Type[] KeyTypes =
        [typeof(string), typeof(char), typeof(bool), typeof(int), typeof(long), typeof(short), typeof(byte), typeof(Guid)];

    private static readonly Type[] AggregatedTypes = [typeof(int), typeof(long), typeof(double), typeof(decimal)];

    /// <summary>As <see cref="Translate"/>, or null when the index cannot compute the shape exactly.</summary>
    public static Translation? TryTranslate(string collection, LambdaExpression key, LambdaExpression selector, TypedTranslator translator)
    {
        try
        {
            return Translate(collection, key, selector, translator);
        }
        catch (NotSupportedException)
        {
            return null;
        }
    }

    /// <summary>Refuses a key that is a named class: LINQ groups it by reference, one group per document.</summary>
    /// <exception cref="NotSupportedException">The key is a named class.</exception>
    public static void RefuseReferenceKey(LambdaExpression key)
    {
        var type = key.Body.Type;
        if (key.Body is MemberInitExpression or NewExpression && !type.IsValueType && !IsAnonymous(type)
            && type.GetMethod(nameof(Equals), [typeof(object)])?.DeclaringType == typeof(object))
            throw new NotSupportedException($"The GroupBy key '{key}' is not supported: a named class without value equality groups by reference " +
                                            "(one group per document); group by a member, an anonymous object of members (new { x.A, x.B }) or a record.");
    }

    /// <param name="collection">The collection (entity name) the query reads.</param>
    /// <param name="key">The <c>GroupBy</c> key selector.</param>
    /// <param name="selector">The <c>Select</c> over the groups.</param>
    /// <param name="translator">For members' JSON paths under the store's names.</param>
    /// <exception cref="NotSupportedException">A part that is not translated exactly.</exception>
    public static Translation Translate(string collection, LambdaExpression key, LambdaExpression selector, TypedTranslator translator)
    {
        var keys = Keys(key, translator);
        var builder = new ProjectionBuilder(selector, key, keys, translator);
        var body = builder.Visit(selector.Body);
        if (builder.UsesGroup(body))
            throw Unsupported(selector, $"'{selector.Parameters[0].Name}' is used other than as g.Key, g.Key.Member, g.Count(), g.LongCount(), g.Sum/Min/Max/Average(x => x.Member)");
        // Every group's count, whether the projection reads it or not: the counts add up to the collection's size unless
        // the index left documents out (a value it cannot aggregate), which the query then refuses to hide.
        if (!builder.Aggregates.Exists(a => a.Name == "Count"))
            builder.Aggregates.Add(new Aggregate("Count", "Count", null));
        var aggregates = builder.Aggregates.OrderBy(a => a.Name, StringComparer.Ordinal).ToList();
        var values = builder.Values.OrderBy(v => v.Name, StringComparer.Ordinal).ToList();
        var names = keys.Select(k => k.Field).Concat(values.Select(v => v.Name)).Concat(aggregates.Select(a => a.Name)).ToList();
        if (names.Distinct(StringComparer.OrdinalIgnoreCase).Count() != names.Count)
            throw Unsupported(key, "two members read as the same index field name (a member named with '_' and a nested member of the same spelling)");
        var indexName = NameFor(collection, keys, aggregates);
        var json = Definition(indexName, collection, keys, values, aggregates);
        var project = Expression.Lambda<Func<object?[], object?>>(Expression.Convert(body, typeof(object)), builder.Slots).Compile();
        return new Translation(collection, indexName, json, project, new ResultReader(keys, aggregates, builder.SlotReaders));
    }

    private static List<KeyPart> Keys(LambdaExpression key, TypedTranslator translator)
    {
        var parameter = key.Parameters[0];
        var body = key.Body;
        if (body is NewExpression { Members: { Count: > 0 } members } created && IsAnonymous(created.Type))
        {
            var parts = new List<KeyPart>();
            for (var i = 0; i < created.Arguments.Count; i++)
                parts.Add(KeyOf(Expression.Lambda(created.Arguments[i], parameter), key, translator, MemberName(members[i])));
            return parts;
        }
        if (body is NewExpression or MemberInitExpression)
            throw Unsupported(key, "a group key is a member, a nested member or an anonymous object of members (new { x.A, x.B }); " +
                                   "a named class would group by reference, not by value");
        return [KeyOf(key, key, translator, null)];
    }

    private static KeyPart KeyOf(LambdaExpression part, LambdaExpression whole, TypedTranslator translator, string? member)
    {
        if (!IsMemberChain(part.Body, part.Parameters[0]))
            throw Unsupported(whole, $"the key '{part.Body}' is computed; group by a member (or nested member) of the document");
        var type = part.Body.Type;
        var underlying = Nullable.GetUnderlyingType(type) ?? type;
        if (!KeyTypes.Contains(underlying) && !underlying.IsEnum)
            throw Unsupported(whole, $"the key '{part.Body}' is a {type.Name}: group keys are strings, chars, booleans, whole numbers, enums and Guids " +
                                     "(numbers with fractions and dates have several texts for one value)");
        var path = translator.GroupedPath(part);
        return new KeyPart("Key_" + path.Replace('.', '_'), path, type, member);
    }

    /// <summary>An anonymous type's member as NewExpression lists it: the property, or (as compilers emit it) its getter.</summary>
    private static string MemberName(MemberInfo member) =>
        member is MethodInfo { Name: var name } && name.StartsWith("get_", StringComparison.Ordinal) ? name["get_".Length..] : member.Name;

    private static bool IsMemberChain(Expression expression, ParameterExpression parameter)
    {
        var current = expression;
        while (current is MemberExpression { Expression: { } owner } member)
        {
            // x.Discount.Value throws in LINQ to Objects where Discount is null; the index would read it as no value.
            if (member.Member.Name == "Value" && Nullable.GetUnderlyingType(owner.Type) is not null)
                return false;
            current = owner;
        }
        return current == parameter && expression != parameter;
    }

    private static bool IsAnonymous(Type type) =>
        type.IsDefined(typeof(System.Runtime.CompilerServices.CompilerGeneratedAttribute), false) && type.Name.Contains("AnonymousType", StringComparison.Ordinal);

    private static string NameFor(string collection, List<KeyPart> keys, List<Aggregate> aggregates)
    {
        var readable = $"Auto/{collection}/Reduce{string.Join("And", aggregates.Select(a => a.Name))}By{string.Join("And", keys.Select(k => k.Field["Key_".Length..]))}";
        if (readable.Length <= 100 && readable.All(c => c is >= 'a' and <= 'z' or >= 'A' and <= 'Z' or >= '0' and <= '9' or '_' or '/' or '-' or '.')
            && !readable.Contains("..", StringComparison.Ordinal))
            return readable;
        // A long shape or a collection name an index name cannot hold: a hash of the shape keeps distinct ones apart.
        var shape = $"{collection}\n{string.Join('\n', keys.Select(k => k.Path))}\n{string.Join('\n', aggregates.Select(a => a.Name))}";
        var hash = Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(shape)))[..16];
        var safe = new string([.. collection.Take(40).Select(c => c is >= 'a' and <= 'z' or >= 'A' and <= 'Z' or >= '0' and <= '9' ? c : '_')]);
        return $"Auto/{safe}/Reduce{hash}";
    }

    private static string Definition(string name, string collection, List<KeyPart> keys, List<ValueField> values, List<Aggregate> aggregates)
    {
        using var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteString("Name", name);
            json.WriteString("EntityName", collection);
            json.WriteStartArray("Fields");
            foreach (var key in keys)
            {
                json.WriteStartObject();
                json.WriteString("Name", key.Field);
                json.WriteString("Path", key.Path);
                json.WriteEndObject();
            }
            foreach (var value in values)
            {
                json.WriteStartObject();
                json.WriteString("Name", value.Name);
                json.WriteString("Path", value.Path);
                json.WriteString("Sort", value.Whole ? "Long" : "Double");
                json.WriteEndObject();
            }
            json.WriteEndArray();
            json.WriteStartObject("Reduce");
            json.WriteStartArray("GroupBy");
            foreach (var key in keys)
                json.WriteStringValue(key.Field);
            json.WriteEndArray();
            json.WriteStartArray("Aggregates");
            foreach (var aggregate in aggregates)
            {
                json.WriteStartObject();
                json.WriteString("Name", aggregate.Name);
                json.WriteString("Function", aggregate.Function);
                if (aggregate.ValueField is { } field)
                    json.WriteString("Field", field);
                json.WriteEndObject();
            }
            json.WriteEndArray();
            json.WriteEndObject();
            json.WriteEndObject();
        }
        return Encoding.UTF8.GetString(buffer.ToArray());
    }

    private static NotSupportedException Unsupported(Expression part, string why) => new(
        $"The GroupBy part '{part}' is not supported: {why}. Supported: GroupBy(x => x.Member), GroupBy(x => x.A.B) or GroupBy(x => new {{ x.A, x.B }}) " +
        "on session.Query<T>() with nothing before it, then Select(g => new { g.Key (or g.Key.A), Count = g.Count(), Total = g.Sum(x => x.Member), ... }) " +
        "with Count, LongCount, and Sum, Min, Max, Average over an int, long, double or decimal member; then any LINQ operator.");

    /// <summary>
    /// Rewrites the projection's body over an <c>object?[]</c> of slots (the key parts, then one per aggregate
    /// expression), each read from a group's JSON by <see cref="SlotReaders"/>.
    /// </summary>
    private sealed class ProjectionBuilder(LambdaExpression selector, LambdaExpression keySelector, List<KeyPart> keys, TypedTranslator translator)
        : ExpressionVisitor
    {
        private readonly ParameterExpression _group = selector.Parameters[0];

        public ParameterExpression Slots { get; } = Expression.Parameter(typeof(object?[]), "slots");

        public List<Aggregate> Aggregates { get; } = [];

        public List<ValueField> Values { get; } = [];

        /// <summary>How each slot after the keys is read: from the group's aggregates by name.</summary>
        public List<Func<IReadOnlyDictionary<string, JsonElement>, object?>> SlotReaders { get; } = [];

        public bool UsesGroup(Expression body)
        {
            var found = false;
            new Finder(node => found |= node == _group).Visit(body);
            return found;
        }

        private UnaryExpression Slot(int index, Type type) => Expression.Convert(Expression.ArrayIndex(Slots, Expression.Constant(index)), type);

        private bool IsKey(Expression expression) => expression is MemberExpression { Member.Name: "Key" } member && member.Expression == _group;

        protected override Expression VisitMember(MemberExpression node)
        {
            if (IsKey(node))
            {
                if (keys is [{ Member: null } only])
                    return Slot(0, only.Type);
                var created = (NewExpression)keySelector.Body;
                return Expression.New(created.Constructor!, keys.Select((k, i) => Slot(i, k.Type)), created.Members);
            }
            if (node.Expression is { } owner && IsKey(owner) && keys.FindIndex(k => k.Member == node.Member.Name) is var at and >= 0)
                return Slot(at, keys[at].Type);
            return base.VisitMember(node);
        }

        protected override Expression VisitMethodCall(MethodCallExpression node)
        {
            if (node.Method.DeclaringType != typeof(Enumerable) || node.Arguments.Count == 0 || node.Arguments[0] != _group)
                return base.VisitMethodCall(node);
            var method = node.Method.Name;
            switch (method)
            {
                case nameof(Enumerable.Count) or nameof(Enumerable.LongCount) when node.Arguments.Count == 1:
                    Add("Count", "Count", null);
                    return method == nameof(Enumerable.Count)
                        ? Read(node.Type, rows => checked((int)Count(rows)))
                        : Read(node.Type, rows => Count(rows));
                case nameof(Enumerable.Sum) or nameof(Enumerable.Min) or nameof(Enumerable.Max) or nameof(Enumerable.Average)
                    when node.Arguments.Count == 2 && Lambda(node.Arguments[1]) is { Parameters.Count: 1 } member:
                    return AggregateOf(node, method, member);
            }
            throw Unsupported(node, method is nameof(Enumerable.Count) or nameof(Enumerable.LongCount)
                ? "a count with a condition is not computed by the index; group by the condition's member instead"
                : $"'{method}' over a group is not computed by the index");
        }

        private UnaryExpression AggregateOf(MethodCallExpression node, string method, LambdaExpression member)
        {
            if (!IsMemberChain(member.Body, member.Parameters[0]))
                throw Unsupported(node, $"'{member}' is not a member: the index aggregates a member (or nested member) of the document as stored, not an expression");
            var type = member.Body.Type;
            var underlying = Nullable.GetUnderlyingType(type) ?? type;
            if (!AggregatedTypes.Contains(underlying))
                throw Unsupported(node, $"'{member.Body}' is a {type.Name}: the index aggregates int, long, double and decimal members");
            var path = translator.GroupedPath(member);
            var whole = underlying == typeof(int) || underlying == typeof(long);
            var value = "Value_" + path.Replace('.', '_');
            if (!Values.Exists(v => v.Name == value))
                Values.Add(new ValueField(value, path, whole));
            var name = $"{method}_{path.Replace('.', '_')}";
            var nullable = Nullable.GetUnderlyingType(type) is not null;
            var resultType = node.Type;
            if (method == nameof(Enumerable.Average) && whole)
            {
                // LINQ averages whole numbers as (double)sum / count; the index's decimal average, read as a double, may
                // differ in the last bit, so the exact sum and the number of values are read instead.
                var sum = Add($"Sum_{path.Replace('.', '_')}", "Sum", value);
                var average = Add(name, "Average", value);
                var count = nullable ? null : Add("Count", "Count", null);
                return Read(resultType, rows => WholeAverage(rows, sum, average, count));
            }
            Add(name, method, value);
            return Read(resultType, rows => Number(rows, name, resultType, method));
        }

        private string Add(string name, string function, string? value)
        {
            if (!Aggregates.Exists(a => a.Name == name))
                Aggregates.Add(new Aggregate(name, function, value));
            return name;
        }

        private UnaryExpression Read(Type type, Func<IReadOnlyDictionary<string, JsonElement>, object?> reader)
        {
            SlotReaders.Add(reader);
            return Slot(keys.Count + SlotReaders.Count - 1, type);
        }

        private static LambdaExpression? Lambda(Expression expression) =>
            (expression is UnaryExpression { NodeType: ExpressionType.Quote } quote ? quote.Operand : expression) as LambdaExpression;

        private static long Count(IReadOnlyDictionary<string, JsonElement> row) => row["Count"].GetInt64();

        private static double? WholeAverage(IReadOnlyDictionary<string, JsonElement> row, string sumName, string averageName, string? countName)
        {
            if (row[averageName].ValueKind == JsonValueKind.Null)
                return countName is null ? null : throw Missing(averageName);
            var sum = row[sumName].GetDecimal();
            if (countName is not null)
                return (double)(long)sum / row[countName].GetInt64();
            // Values may be null: their number is the sum over the (exact, 28-digit) average, rounded.
            var average = row[averageName].GetDecimal();
            return sum == 0 ? 0d : (double)(long)sum / (double)decimal.Round(sum / average);
        }

        private static object? Number(IReadOnlyDictionary<string, JsonElement> row, string name, Type resultType, string method)
        {
            var element = row[name];
            var target = Nullable.GetUnderlyingType(resultType) ?? resultType;
            if (element.ValueKind == JsonValueKind.Null)
                return Nullable.GetUnderlyingType(resultType) is not null ? null : throw Missing(name);
            var value = element.GetDecimal();
            // Checked as LINQ's own sums are: an int sum past int.MaxValue throws OverflowException.
            return target == typeof(int) ? decimal.ToInt32(value)
                : target == typeof(long) ? decimal.ToInt64(value)
                : target == typeof(double) ? double.Parse(element.GetRawText(), NumberStyles.Float, CultureInfo.InvariantCulture)
                : target == typeof(decimal) ? value
                : throw new NotSupportedException($"'{method}' giving a {resultType.Name} is not read from the index.");
        }

        private static InvalidOperationException Missing(string name) =>
            new($"The group's '{name}' has no values: documents of the collection lack the member (LINQ would read them as 0); store the member in every document.");
    }

    private sealed class Finder(Action<Expression> seen) : ExpressionVisitor
    {
        public override Expression? Visit(Expression? node)
        {
            if (node is not null)
                seen(node);
            return base.Visit(node);
        }
    }

    /// <summary>Reads a group's JSON into the projection's slots.</summary>
    internal sealed class ResultReader
    {
        private readonly List<KeyPart> _keys;
        private readonly List<Aggregate> _aggregates;
        private readonly List<Func<IReadOnlyDictionary<string, JsonElement>, object?>> _readers;

        internal ResultReader(List<KeyPart> keys, List<Aggregate> aggregates, List<Func<IReadOnlyDictionary<string, JsonElement>, object?>> readers) =>
            (_keys, _aggregates, _readers) = (keys, aggregates, readers);

        public object?[] Read(ReadOnlyMemory<byte> data, out long count)
        {
            var keys = _keys;
            var aggregates = _aggregates;
            var readers = _readers;
            using var document = JsonDocument.Parse(data);
            var row = new Dictionary<string, JsonElement>(StringComparer.Ordinal);
            foreach (var property in document.RootElement.EnumerateObject())
                row[property.Name] = property.Value;
            foreach (var aggregate in aggregates)
            {
                if (!row.ContainsKey(aggregate.Name))
                    throw new InvalidDataException($"The map/reduce result lacks '{aggregate.Name}'.");
            }
            count = row["Count"].GetInt64();
            var slots = new object?[keys.Count + readers.Count];
            for (var i = 0; i < keys.Count; i++)
                slots[i] = KeyValue(row.TryGetValue(keys[i].Field, out var value) ? value : default, keys[i].Type);
            for (var i = 0; i < readers.Count; i++)
                slots[keys.Count + i] = readers[i](row);
            return slots;
        }

        private static object? KeyValue(JsonElement element, Type type)
        {
            if (element.ValueKind is JsonValueKind.Null or JsonValueKind.Undefined)
                return Nullable.GetUnderlyingType(type) is not null || !type.IsValueType ? null
                    : throw new InvalidOperationException($"A group's key is null, which a {type.Name} cannot hold: documents of the collection lack the member.");
            var text = element.ValueKind == JsonValueKind.String ? element.GetString()! : element.GetRawText();
            var target = Nullable.GetUnderlyingType(type) ?? type;
            if (target == typeof(string))
                return text;
            if (target == typeof(char))
                return text.Length == 1 ? text[0] : throw new InvalidDataException($"The key '{text}' is not one char.");
            if (target == typeof(bool))
                return bool.Parse(text);
            if (target == typeof(Guid))
                return Guid.Parse(text);
            if (target.IsEnum)
                return long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var number)
                    ? Enum.ToObject(target, number)
                    : EnumValue(target, text);
            return Convert.ChangeType(text, target, CultureInfo.InvariantCulture);
        }

        private static object EnumValue(Type type, string text)
        {
            // A member renamed with [EnumMember(Value = ...)] is stored under that name.
            foreach (var field in type.GetFields(BindingFlags.Public | BindingFlags.Static))
            {
                if (field.GetCustomAttribute<System.Runtime.Serialization.EnumMemberAttribute>()?.Value == text)
                    return field.GetValue(null)!;
            }
            return Enum.Parse(type, text, ignoreCase: true);
        }
    }
}
