using System.Collections;
using System.Globalization;
using System.Linq.Expressions;
using System.Reflection;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using RavenLite.Client.Serialization;

namespace RavenLite.Client.Querying;

/// <summary>
/// Translates C# predicates, orderings and aggregate selectors into queries of an auto index's typed fields
/// (<c>dynamic/{collection}</c>): each member's CLR type picks the kind of value it is compared as (strings, booleans,
/// GUIDs and characters exactly, integers and decimals as exact decimals (<c>@dec</c>), doubles and floats as doubles
/// (<c>@num</c>), DateTime and DateTimeOffset as UTC instants (<c>@time</c>), collections by their items and lengths
/// (<c>@count</c>), null through <c>@null</c>), with names as the store's serializer writes them. Every value is quoted
/// or escaped by code point, so no C# value reaches Lucene as syntax. What it cannot answer exactly is a
/// <see cref="NotSupportedException"/> naming the expression.
/// </summary>
internal sealed class TypedTranslator(EntitySerializer serializer)
{
    private readonly System.Collections.Concurrent.ConcurrentDictionary<(Type, MemberInfo), string?> _jsonNames = new();

    /// <summary>
    /// The JSON name of a member, asked of the serializer's contract once per member; a member the serializer does not
    /// write (<c>[JsonIgnore]</c>) has no values in any document, so it is refused rather than matched against nothing.
    /// </summary>
    private string JsonName(Type owner, MemberInfo member) =>
        _jsonNames.GetOrAdd((owner, member), static (key, serializer) => serializer.Writes(key.Item1, key.Item2)
            ? serializer.JsonName(key.Item1, key.Item2)
            : (string?)null, serializer) ?? throw new NotSupportedException($"'{owner.Name}.{member.Name}' is not written to documents ([JsonIgnore], or not a member the " +
                "store's serializer writes), so the index holds no values of it; filter on it on the client after the query");

    private readonly System.Collections.Concurrent.ConcurrentDictionary<(Type, MemberInfo, Type, bool), JsonConverter?> _converters = new();
    private readonly System.Collections.Concurrent.ConcurrentDictionary<(Type, MemberInfo, Type), object?> _omitted = new();

    /// <summary>The converter writing a member's values (or items), asked of the serializer once per member.</summary>
    private JsonConverter? ConverterOf(Type owner, MemberInfo member, Type valueType, bool items) =>
        _converters.GetOrAdd((owner, member, valueType, items), static (key, serializer) => serializer.ConverterOf(key.Item1, key.Item2, key.Item3, key.Item4), serializer);

    /// <summary>The default the serializer leaves out for a member, asked once per member.</summary>
    private object? OmittedDefault(Type owner, MemberInfo member, Type valueType) =>
        _omitted.GetOrAdd((owner, member, valueType), static (key, serializer) => serializer.OmittedDefault(key.Item1, key.Item2, key.Item3), serializer);

    /// <summary>How a member's values are indexed and compared.</summary>
    internal enum Kind { Text, Boolean, Exact, Number, Instant }

    /// <summary>A member reached from the entity (or from an item inside <c>Any</c>): its path, CLR type and kind.</summary>
    /// <remarks><paramref name="Converter"/>: the JsonConverter the member's values (a collection's items) are written by, when it has one of its own.</remarks>
    /// <remarks><paramref name="Omitted"/>: the value the serializer leaves out for the member (DefaultValueHandling.Ignore), which a document without it holds.</remarks>
    internal readonly record struct FieldRef(string Path, Type Type, Kind Kind, bool ThroughCollection, JsonConverter? Converter = null, object? Omitted = null);

    public string Where(LambdaExpression predicate) => Clause(predicate.Body, new Scope(predicate.Parameters[0], "", null));

    /// <summary>
    /// The sort field for <c>OrderBy(x =&gt; x.Member)</c>, or with <paramref name="comparer"/> given to <c>OrderBy</c>. A
    /// string member orders as LINQ to Objects orders it: by default with the current culture, answered from the
    /// invariant culture's sort keys (<see cref="TypedFieldSuffixes.Collated"/>) when the current culture orders as that
    /// one does; with <see cref="StringComparer.Ordinal"/> by code point.
    /// </summary>
    public string SortField(LambdaExpression selector, object? comparer = null)
    {
        var field = Field(selector.Body, new Scope(selector.Parameters[0], "", null), selector);
        if (field.ThroughCollection)
            throw Unsupported(selector, "ordering by a member of a collection's items is not supported; order by a member of the entity");
        ThrowIfStoredOutOfOrder(field, selector, "ordered by");
        var underlying = Nullable.GetUnderlyingType(field.Type) ?? field.Type;
        // A Guid's and a char's text orders as they compare; a TimeSpan's ("-00:02:00", "1.00:00:00") does not.
        if (field.Kind == Kind.Text && underlying != typeof(string) && underlying != typeof(char) && underlying != typeof(Guid))
            throw Unsupported(selector, $"a {underlying.Name} is written as text, whose order is not the order C# gives its values; " +
                "order by a member that holds it as a number (a TimeSpan's Ticks), or on the client after the query");
        var isString = underlying == typeof(string);
        if (comparer is not null && (!isString || !ReferenceEquals(comparer, StringComparer.Ordinal)))
            throw Unsupported(selector, $"ordering with the comparer {comparer.GetType().Name} is not supported; StringComparer.Ordinal orders strings by the index's code-point order");
        if (!isString || comparer is not null || CultureOrdersOrdinally)
            return field.Path + Suffix(field.Kind);
        if (!CultureOrdersAsInvariant(CultureInfo.CurrentCulture))
            throw Unsupported(selector, $"LINQ orders strings with the current culture ('{CultureInfo.CurrentCulture.Name}'), and the index holds sort keys of the " +
                "invariant culture only; pass StringComparer.Ordinal to order by code point, or order on the client after the query");
        return field.Path + TypedFieldSuffixes.Collated;
    }

    /// <summary>
    /// Whether culture comparisons are ordinal in this process (globalization-invariant mode): then LINQ's default order
    /// of strings is the index's code-point order. Under ICU "a" sorts before "B"; ordinally after.
    /// </summary>
    private static bool CultureOrdersOrdinally { get; } =
        CultureInfo.InvariantCulture.CompareInfo.Compare("a", "B", CompareOptions.None) > 0;

    /// <summary>
    /// Whether <paramref name="culture"/> orders strings as the invariant culture does: the invariant culture itself, or
    /// English (CLDR's English collation is the root collation, which the invariant culture uses, with no tailoring).
    /// </summary>
    private static bool CultureOrdersAsInvariant(CultureInfo culture) =>
        culture.CompareInfo.Name.Length == 0 || culture.CompareInfo.Name == "en"
        || (culture.CompareInfo.Name.StartsWith("en-", StringComparison.Ordinal) && culture.CompareInfo.Name.Length == 5);

    /// <summary>
    /// The path of a member chain (<c>x =&gt; x.Customer.Name</c>: <c>Customer.Name</c>) or of a collection's items'
    /// member (<c>x =&gt; x.Lines.Select(l =&gt; l.Price)</c>: <c>Lines.Price</c>), as a typed field names it.
    /// </summary>
    public string FieldPath(LambdaExpression selector) => FieldOf(selector).Path;

    /// <summary>
    /// As <see cref="FieldPath"/>, for a key or value a map/reduce index groups or adds up: refused (so grouped in memory)
    /// when documents do not hold the member's values as written (<see cref="Reduced"/>).
    /// </summary>
    public string GroupedPath(LambdaExpression selector) => Reduced(FieldOf(selector), selector).Path;

    private FieldRef FieldOf(LambdaExpression selector)
    {
        var scope = new Scope(selector.Parameters[0], "", null);
        var body = Unwrap(selector.Body);
        if (body is MethodCallExpression { Method.Name: nameof(Enumerable.Select), Method.DeclaringType: var type, Arguments: [var source, LambdaExpression item] }
            && type == typeof(Enumerable))
        {
            var collection = CollectionPath(source, scope, selector);
            return Field(item.Body, new Scope(item.Parameters[0], collection, scope, ItemConverter(source)), selector);
        }
        return Field(body, scope, selector);
    }

    /// <summary>
    /// The facet field of a member (<c>x =&gt; x.Brand</c>), a collection of values (<c>x =&gt; x.Tags</c>) or a
    /// collection's items' member (<c>x =&gt; x.Lines.Select(l =&gt; l.Price)</c>), with its kind's suffix, and the
    /// CLR type of one value (for range bounds).
    /// </summary>
    public (string Field, Type ValueType) FacetField(LambdaExpression selector, bool ranges)
    {
        var scope = new Scope(selector.Parameters[0], "", null);
        var body = Unwrap(selector.Body);
        FieldRef field;
        if (body is MethodCallExpression { Method.Name: nameof(Enumerable.Select), Method.DeclaringType: var type, Arguments: [var source, LambdaExpression item] }
            && type == typeof(Enumerable))
        {
            var collection = CollectionPath(source, scope, selector);
            field = Field(item.Body, new Scope(item.Parameters[0], collection, scope), selector);
        }
        else
        {
            field = Field(body, scope, selector);
        }
        var valueType = ValueType(field.Type);
        if (field.Omitted is { } omitted)
            throw Unsupported(selector, $"the serializer leaves '{field.Path}' out of documents where it is {omitted} (DefaultValueHandling.Ignore), " +
                "so their value would count as missing");
        // The serializer writes an enum value without a name as its number, which the names' text field does not hold.
        if (WritesEnumNames(field))
            throw Unsupported(selector, $"'{field.Path}' is an enum the serializer writes by name, but a value without a name as its number, which a count " +
                $"of the names would leave out; count the names by AggregateBy(new FacetRequest {{ Field = \"{field.Path}\" }})");
        // Dates in the settings' own format are counted as the text they are stored as; they have no ranges.
        if (field.Kind == Kind.Instant && !serializer.WritesIsoDates && field.Converter is null)
        {
            if (ranges)
                ThrowIfStoredOutOfOrder(field, selector, "counted by ranges");
            return (field.Path, valueType);
        }
        if (field.Converter is { } converter)
            throw Unsupported(selector, $"'{field.Path}' is written by a JsonConverter ({converter.GetType().Name}), so the index holds the converter's form, " +
                "not values of the member's kind to count");
        return (field.Path + Suffix(field.Kind), valueType);
    }

    /// <summary>A range bound as the facet's kind reads it: numbers invariant (doubles round-trip), instants as UTC ISO 8601.</summary>
    public static string FacetBound(object value) => value switch
    {
        DateTime time => (time.Kind == DateTimeKind.Local ? time.ToUniversalTime() : DateTime.SpecifyKind(time, DateTimeKind.Utc)).ToString("O", CultureInfo.InvariantCulture),
        DateTimeOffset offset => offset.UtcDateTime.ToString("O", CultureInfo.InvariantCulture),
        double number => number.ToString("R", CultureInfo.InvariantCulture),
        // As a float member is stored and compared (its shortest text), not as the double it widens to.
        float number => number.ToString("R", CultureInfo.InvariantCulture),
        IFormattable formattable when value.GetType().IsPrimitive || value is decimal => formattable.ToString(null, CultureInfo.InvariantCulture),
        _ => throw new NotSupportedException($"A range facet's bounds must be numbers or dates, not {value.GetType().Name}."),
    };

    /// <summary>
    /// The JSON path of a map/reduce index's field (<c>Customer</c>, or <c>Lines[].Price</c> for
    /// <c>x.Lines.Select(l =&gt; l.Price)</c>: one map entry per item) and the type of its values.
    /// </summary>
    public (string Path, Type Type) ReducePath(LambdaExpression selector)
    {
        var body = Unwrap(selector.Body);
        if (body is MethodCallExpression { Method.Name: nameof(Enumerable.Select), Method.DeclaringType: var type, Arguments: [var source, LambdaExpression item] }
            && type == typeof(Enumerable))
        {
            var collection = CollectionPath(source, new Scope(selector.Parameters[0], "", null), selector);
            var inner = Unwrap(item.Body);
            return ($"{collection}[].{Reduced(Field(inner, new Scope(item.Parameters[0], "", null, ItemConverter(source)), selector), selector).Path}", inner.Type);
        }
        return (Reduced(Field(body, new Scope(selector.Parameters[0], "", null), selector), selector).Path, body.Type);
    }

    /// <summary>
    /// Refuses a member whose documents do not hold its values as written (a left-out default, a converter's form other
    /// than an enum's name): a map/reduce index would group or add up what is stored, not the values LINQ sees.
    /// </summary>
    private FieldRef Reduced(FieldRef field, Expression expression)
    {
        if (field.Omitted is not null || (field.Converter is not null && !WritesEnumNames(field)))
            ThrowIfStoredOutOfOrder(field, expression, "grouped or added up by an index");
        return field;
    }

    /// <summary>The clause of a word search on a string member: each term, escaped, all required or any.</summary>
    public string Search(LambdaExpression selector, string terms, bool all)
    {
        var path = FieldPath(selector);
        var words = terms.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);
        if (words.Length == 0)
            throw new ArgumentException("Search needs at least one term.", nameof(terms));
        return $"{path}{TypedFieldSuffixes.Search}:({string.Join(' ', words.Select(word => (all ? "+" : "") + Escape(word)))})";
    }

    /// <summary>The aggregated field for <c>Sum</c>, <c>Min</c>, <c>Max</c> and <c>Average</c>, with its kind's suffix.</summary>
    public (string Field, Kind Kind, Type Type) AggregateField(LambdaExpression selector)
    {
        var field = Field(selector.Body, new Scope(selector.Parameters[0], "", null), selector);
        if (field.ThroughCollection)
            throw Unsupported(selector, "aggregating the items of a collection is not supported; aggregate a member of the entity");
        if (field.Kind is Kind.Text or Kind.Boolean)
            throw Unsupported(selector, "only numbers and dates can be aggregated in the index");
        ThrowIfStoredOutOfOrder(field, selector, "aggregated");
        return (field.Path + Suffix(field.Kind), field.Kind, field.Type);
    }

    /// <summary>
    /// Refuses an order or aggregate of a member the index does not hold in C#'s order: one written by a JsonConverter
    /// of its own (its stored form is the converter's), or an enum written by name (names sort as text, C# orders enums
    /// by number).
    /// </summary>
    private void ThrowIfStoredOutOfOrder(FieldRef field, Expression expression, string what)
    {
        if (WritesEnumNames(field))
            throw Unsupported(expression, $"'{field.Path}' is an enum the serializer writes by name, and names are not in C#'s order of enums " +
                $"(by number), so it cannot be {what} in the index; do it on the client, or store the enum as a number");
        if (field.Converter is { } converter)
            throw Unsupported(expression, $"'{field.Path}' is written by a JsonConverter ({converter.GetType().Name}), so the index holds the " +
                $"converter's form, not the value's order; it cannot be {what} in the index");
        if (field.Omitted is { } omitted)
            throw Unsupported(expression, $"the serializer leaves '{field.Path}' out of documents where it is {omitted} (DefaultValueHandling.Ignore), so " +
                $"those documents have no value in the index; it cannot be {what} in the index");
        if (field.Kind == Kind.Instant && !serializer.WritesIsoDates)
            throw Unsupported(expression, $"the store's settings write '{field.Path}' in a date format of their own, not ISO 8601, so the index does " +
                $"not read it as an instant; it cannot be {what} in the index");
    }

    /// <summary>Whether <paramref name="field"/> is an enum (or enums) the serializer writes as names.</summary>
    private bool WritesEnumNames(FieldRef field) =>
        EnumType(field) is { } type && Enum.GetValues(type) is { Length: > 0 } values
        && Term(field, values.GetValue(0)!, Expression.Empty()).Suffix.Length == 0;

    private static Type? EnumType(FieldRef field) => ValueType(field.Type) is { IsEnum: true } type ? type : null;

    /// <summary>The type of one value of a member: its own, or its items' for a collection, without Nullable.</summary>
    private static Type ValueType(Type memberType)
    {
        var type = Nullable.GetUnderlyingType(memberType) ?? memberType;
        if (IsCollection(type) && ElementType(type) is { } element)
            type = Nullable.GetUnderlyingType(element) ?? element;
        return type;
    }

    /// <summary>
    /// A range of an enum written by name: the names of the defined values in the range, as terms, and the numbers
    /// in it (the serializer writes a value without a name as its number). A [Flags] enum's combinations have no
    /// name of their own, so its ranges are refused.
    /// </summary>
    private string EnumRange(FieldRef member, Type type, ExpressionType op, object value, Expression expression)
    {
        if (type.IsDefined(typeof(FlagsAttribute), false))
            throw Unsupported(expression, $"'{member.Path}' is a [Flags] enum the serializer writes by name: its combinations have no order in the index; " +
                "compare with == or !=, or store the enum as a number");
        var bound = EnumNumber(value);
        var terms = new List<string>();
        foreach (var defined in Enum.GetValues(type).Cast<object>().Distinct())
        {
            var number = EnumNumber(defined);
            var inRange = op switch
            {
                ExpressionType.LessThan => number < bound,
                ExpressionType.LessThanOrEqual => number <= bound,
                ExpressionType.GreaterThan => number > bound,
                _ => number >= bound,
            };
            if (inRange && Term(member, defined, expression) is var (suffix, term))
                terms.Add($"{member.Path}{suffix}:{term}");
        }
        terms.Add(Range(member.Path + TypedFieldSuffixes.Exact, op, Quote(bound.ToString(CultureInfo.InvariantCulture)), expression));
        return "(" + string.Join(" OR ", terms.Distinct(StringComparer.Ordinal)) + ")";
    }

    private static decimal EnumNumber(object value) =>
        Convert.ToDecimal(Convert.ChangeType(value, Enum.GetUnderlyingType(value.GetType()), CultureInfo.InvariantCulture), CultureInfo.InvariantCulture);

    private sealed record Scope(ParameterExpression Parameter, string Prefix, Scope? Outer, JsonConverter? ItemConverter = null);

    private string Clause(Expression expression, Scope scope)
    {
        switch (expression)
        {
            case BinaryExpression { NodeType: ExpressionType.AndAlso } and:
                return $"({Clause(and.Left, scope)}) AND ({Clause(and.Right, scope)})";
            case BinaryExpression { NodeType: ExpressionType.OrElse } or:
                return $"({Clause(or.Left, scope)}) OR ({Clause(or.Right, scope)})";
            case UnaryExpression { NodeType: ExpressionType.Not } not:
                return Not(Clause(not.Operand, scope));
            case BinaryExpression binary when binary.NodeType is ExpressionType.Equal or ExpressionType.NotEqual
                or ExpressionType.LessThan or ExpressionType.LessThanOrEqual or ExpressionType.GreaterThan or ExpressionType.GreaterThanOrEqual:
                return Comparison(binary, scope);
            case MemberExpression { Member.Name: "HasValue", Expression: { } nullable } when Nullable.GetUnderlyingType(nullable.Type) is not null:
                return Comparison(Expression.NotEqual(Unwrap(nullable), Expression.Constant(null, nullable.Type)), scope);
            case MemberExpression member when Unwrap(member).Type == typeof(bool) && DependsOnAny(member):
                return Comparison(Expression.Equal(Unwrap(member), Expression.Constant(true)), scope);
            case MethodCallExpression call:
                return Method(call, scope);
            case ConstantExpression { Value: bool constant }:
                return constant ? "*:*" : Nothing;
            default:
                if (!DependsOnAny(expression))
                    return Evaluate(expression) is true ? "*:*" : Nothing;
                throw Unsupported(expression, "it is not a comparison, a boolean member or a supported method");
        }
    }

    private const string Nothing = "(*:* AND NOT *:*)";

    private static string Not(string clause) => $"(*:* AND NOT ({clause}))";

    /// <summary>Whether <c>sign op 0</c> holds for a comparison result's sign.</summary>
    private static bool Holds(int sign, ExpressionType op) => op switch
    {
        ExpressionType.Equal => sign == 0,
        ExpressionType.NotEqual => sign != 0,
        ExpressionType.LessThan => sign < 0,
        ExpressionType.LessThanOrEqual => sign <= 0,
        ExpressionType.GreaterThan => sign > 0,
        _ => sign >= 0,
    };

    private string Comparison(BinaryExpression binary, Scope scope)
    {
        var leftDepends = DependsOnAny(binary.Left);
        var rightDepends = DependsOnAny(binary.Right);
        if (leftDepends == rightDepends)
            throw Unsupported(binary, leftDepends ? "it compares two members; compare a member with a value" : "it does not read the entity");
        var (memberSide, valueSide, op) = leftDepends ? (binary.Left, binary.Right, binary.NodeType) : (binary.Right, binary.Left, Flip(binary.NodeType));
        memberSide = Unwrap(memberSide);

        // x.Tags.Count > 2, x.Tags.Length == 0, x.Tags.Count() >= 1
        if (CountOf(memberSide, scope) is { } countPath)
        {
            var count = Convert.ToInt64(Evaluate(valueSide), CultureInfo.InvariantCulture);
            return Range(countPath + TypedFieldSuffixes.Count, op, Quote(count.ToString(CultureInfo.InvariantCulture)), binary);
        }
        // string.Compare(x.A, "b", StringComparison.Ordinal) > 0
        if (memberSide is MethodCallExpression { Method.Name: nameof(string.Compare), Method.DeclaringType: var declaring, Arguments: [var first, var second, var how] }
            && declaring == typeof(string) && Evaluate(how) is StringComparison.Ordinal && Evaluate(valueSide) is 0)
        {
            var (field, other, swap) = DependsOnAny(first) ? (first, second, false) : (second, first, true);
            var reference = Field(field, scope, binary);
            if (reference.Kind != Kind.Text || DependsOnAny(other))
                throw Unsupported(binary, "string.Compare is translated only for a string member and a string value");
            var text = Evaluate(other) as string ?? throw Unsupported(binary, "comparing with null");
            var range = Range(reference.Path, swap ? Flip(op) : op, Quote(text), binary);
            // string.Compare orders null before every string: Compare(null, "b") is -1, Compare("b", null) is 1.
            if (!Holds(swap ? 1 : -1, op))
                return range;
            if (reference.ThroughCollection)
                throw Unsupported(binary, "string.Compare counts a null item as before every string, and the index holds no null items of a collection");
            return $"({range}) OR ({reference.Path}{TypedFieldSuffixes.Null}:true)";
        }
        var value = Evaluate(valueSide);
        // x.Address == null: an object member has no value to compare, but the index marks it null or missing.
        var member = Field(memberSide, scope, binary, nullCheck: value is null && op is ExpressionType.Equal or ExpressionType.NotEqual);
        if (member.Omitted is not { } omitted)
            return MemberComparison(member, op, value, binary);
        if (value is null)
            throw Unsupported(binary, $"the serializer leaves '{member.Path}' out where it is {omitted}, so a document without it is not null");
        // A document without the member holds the omitted default: it matches exactly when the default does.
        var defaultMatches = Expression.Lambda<Func<bool>>(new Replacer(memberSide, Expression.Constant(omitted, memberSide.Type)).Visit(binary)!)
            .Compile(preferInterpretation: true)();
        return WithOmitted(member, MemberComparison(member, op, value, binary), defaultMatches, binary);
    }

    /// <summary>
    /// <paramref name="clause"/> over the documents holding <paramref name="member"/>, and those leaving it out (whose
    /// value is its omitted default) when <paramref name="defaultMatches"/>.
    /// </summary>
    private static string WithOmitted(FieldRef member, string clause, bool defaultMatches, Expression expression)
    {
        if (member.ThroughCollection)
            throw Unsupported(expression, $"the serializer leaves '{member.Path}' out of items where it is {member.Omitted} (DefaultValueHandling.Ignore), " +
                "and the index cannot tell which item lacks it");
        var missing = $"{member.Path}{TypedFieldSuffixes.Null}:true";
        return defaultMatches ? $"({clause}) OR ({missing})" : $"({clause}) AND ({Not(missing)})";
    }

    private string MemberComparison(FieldRef member, ExpressionType op, object? value, BinaryExpression binary)
    {
        if (value is null)
        {
            if (member.ThroughCollection)
                throw Unsupported(binary, "null checks on the items of a collection are not supported");
            var isNull = $"{member.Path}{TypedFieldSuffixes.Null}:true";
            return op switch
            {
                ExpressionType.Equal => isNull,
                ExpressionType.NotEqual => Not(isNull),
                // A lifted comparison with null is false in C#.
                _ => Nothing,
            };
        }
        if (member.Type == typeof(byte[]))
            throw Unsupported(binary, "a byte[] is written as base64 text, and C# compares arrays by reference; compare its bytes on the client");
        var (suffix, term) = Term(member, value, binary);
        if (op is not (ExpressionType.Equal or ExpressionType.NotEqual) && member.Kind is Kind.Text or Kind.Boolean)
            throw Unsupported(binary, $"'{member.Type.Name}' values have no order in C#'s operators");
        if (op is not (ExpressionType.Equal or ExpressionType.NotEqual))
        {
            if (EnumType(member) is { } enumType && WritesEnumNames(member))
                return EnumRange(member, enumType, op, AsMemberType(member, value, binary), binary);
            // A left-out default is answered by the caller (WithOmitted): only the stored form's order matters here.
            ThrowIfStoredOutOfOrder(member with { Omitted = null }, binary, "compared by order");
        }
        if (op == ExpressionType.NotEqual)
        {
            if (member.ThroughCollection)
                throw Unsupported(binary, "'!=' on the items of a collection would mean 'some item differs', which is not 'no item equals'; write !x.Items.Any(i => i.Member == value)");
            return Not($"{member.Path}{suffix}:{term}");
        }
        var range = Range(member.Path + suffix, op, term, binary);
        return suffix == TypedFieldSuffixes.Number && WrittenInfinity(member, op) is { } infinity
            ? $"({range}) OR ({member.Path}:{infinity})"
            : range;
    }

    /// <summary>
    /// The term of the infinity a range reaches in C# (+∞ for <c>&gt;</c> and <c>&gt;=</c>, −∞ for <c>&lt;</c> and
    /// <c>&lt;=</c>) when the serializer writes it as text (<see cref="WrittenAsText"/>): the numeric range does not
    /// reach it. Null when it is written as a number.
    /// </summary>
    private string? WrittenInfinity(FieldRef member, ExpressionType op) =>
        WrittenAsText(member, op is ExpressionType.GreaterThan or ExpressionType.GreaterThanOrEqual ? double.PositiveInfinity : double.NegativeInfinity);

    /// <summary>
    /// The clause matching documents whose float or double member holds NaN or an infinity written as text
    /// (<see cref="WrittenAsText"/>), which an order or an aggregate of the member cannot place as C# does; null for
    /// other members, and when the serializer writes none of them as text.
    /// </summary>
    public string? NonFiniteClause(LambdaExpression selector)
    {
        var member = FieldOf(selector);
        var terms = ((double[])[double.NaN, double.PositiveInfinity, double.NegativeInfinity])
            .Select(value => WrittenAsText(member, value)).OfType<string>().Select(term => $"{member.Path}:{term}").ToList();
        return terms.Count == 0 ? null : string.Join(" OR ", terms);
    }

    /// <summary>
    /// The quoted term of NaN or an infinity of a float or double member where the serializer writes it as text
    /// (Newtonsoft's default, <c>FloatFormatHandling.String</c>): JSON has no such numbers, so the index holds the text
    /// beside the member's numbers, outside their ranges, order and sums. Null for other members, or when it is written
    /// as a number.
    /// </summary>
    private string? WrittenAsText(FieldRef member, double value)
    {
        if (member.Kind != Kind.Number)
            return null;
        object typed = ValueType(member.Type) == typeof(float) ? (float)value : value;
        return serializer.ToWrittenToken(typed, member.Converter) is { Type: JTokenType.String } written ? Quote((string)written!) : null;
    }

    private static string Range(string field, ExpressionType op, string term, Expression expression)
    {
        var end = RangeEnd(term);
        return op switch
        {
            ExpressionType.Equal => $"{field}:{term}",
            ExpressionType.NotEqual => Not($"{field}:{term}"),
            ExpressionType.LessThan => $"{field}:{{* TO {end}}}",
            ExpressionType.LessThanOrEqual => $"{field}:[* TO {end}]",
            ExpressionType.GreaterThan => $"{field}:{{{end} TO *}}",
            ExpressionType.GreaterThanOrEqual => $"{field}:[{end} TO *]",
            _ => throw Unsupported(expression, $"'{op}' is not a comparison"),
        };
    }

    /// <summary>
    /// A quoted term as a range's end. The grammar's quoted range end takes <c>\"</c> for an escaped quote, not for an
    /// escaped backslash and the closing quote, so a value ending in a backslash ends with it as <c>\u005C</c> (the
    /// parser reads escapes in range ends as in terms).
    /// </summary>
    private static string RangeEnd(string term) =>
        term.EndsWith("\\\\\"", StringComparison.Ordinal) ? term[..^3] + "\\u005C\"" : term;

    private string Method(MethodCallExpression call, Scope scope)
    {
        if (AsEnumerableContains(call) is { } contains)
            call = contains;
        var method = call.Method;
        // String methods on a member.
        if (method.DeclaringType == typeof(string) && call.Object is { } target && DependsOnAny(target))
        {
            var field = Field(target, scope, call);
            if (field.Kind != Kind.Text)
                throw Unsupported(call, "string methods need a string member");
            var argument = call.Arguments.Count > 0 ? Evaluate(call.Arguments[0]) : null;
            var comparison = call.Arguments.Count > 1 ? Evaluate(call.Arguments[1]) : null;
            var ignoreCase = comparison switch
            {
                null or StringComparison.Ordinal => false,
                StringComparison.OrdinalIgnoreCase => true,
                _ => throw Unsupported(call, $"StringComparison.{comparison} is culture-sensitive; use Ordinal or OrdinalIgnoreCase"),
            };
            if (call.Arguments.Count > 0 && call.Arguments[0].Type != typeof(string))
                throw Unsupported(call, "only the overloads taking a string are supported");
            var text = argument as string ?? throw Unsupported(call, "the argument is null");
            // .NET runs StartsWith and EndsWith without a StringComparison with the current culture, which agrees with an
            // ordinal comparison for printable ASCII but composes and skips other characters ("é" starts with "e\u0301").
            if (comparison is null && method.Name is nameof(string.StartsWith) or nameof(string.EndsWith) && !text.All(c => c is >= ' ' and <= '~'))
                throw Unsupported(call, $"string.{method.Name} without a StringComparison compares with the current culture, which for this argument " +
                    "is not an ordinal comparison; pass StringComparison.Ordinal or OrdinalIgnoreCase");
            if (!Utf16Text.IsUnicode(text))
                throw Unsupported(call, "the argument holds half of a character (an unpaired UTF-16 surrogate), which the index's UTF-8 terms " +
                    "cannot hold; compare whole characters");
            var name = field.Path + (ignoreCase ? TypedFieldSuffixes.IgnoreCase : "");
            // An @ci text is folded where it is compared, by the index's folding (the one OrdinalIgnoreCase uses), not here.
            return method.Name switch
            {
                nameof(string.StartsWith) => text.Length == 0 ? $"{name}:[* TO *]" : $"{name}:{Escape(text)}*",
                nameof(string.EndsWith) => text.Length == 0 ? $"{name}:[* TO *]" : $"{name}:*{Escape(text)}",
                nameof(string.Contains) => text.Length == 0 ? $"{name}:[* TO *]" : $"{name}:*{Escape(text)}*",
                nameof(string.Equals) => $"{name}:{Quote(text)}",
                _ => throw Unsupported(call, $"string.{method.Name} is not supported"),
            };
        }
        // string.IsNullOrEmpty(x.F), string.Equals(x.F, v[, comparison])
        if (method.DeclaringType == typeof(string) && method.IsStatic)
        {
            if (method.Name == nameof(string.IsNullOrEmpty) && call.Arguments is [var tested])
            {
                var field = Field(tested, scope, call);
                if (field.ThroughCollection)
                    throw Unsupported(call, "null checks on the items of a collection are not supported");
                return $"({field.Path}{TypedFieldSuffixes.Null}:true) OR ({field.Path}:\"\")";
            }
            if (method.Name == nameof(string.Equals) && call.Arguments.Count is 2 or 3)
            {
                var (member, value) = DependsOnAny(call.Arguments[0]) ? (call.Arguments[0], call.Arguments[1]) : (call.Arguments[1], call.Arguments[0]);
                var instance = call.Arguments.Count == 3
                    ? Expression.Call(member, typeof(string).GetMethod(nameof(string.Equals), [typeof(string), typeof(StringComparison)])!, value, call.Arguments[2])
                    : Expression.Call(member, typeof(string).GetMethod(nameof(string.Equals), [typeof(string)])!, value);
                return Method(instance, scope);
            }
            throw Unsupported(call, $"string.{method.Name} is not supported");
        }
        // Enumerable.Any / Contains / Count over a member collection or a list of values.
        if (method.DeclaringType == typeof(Enumerable) || (method.Name == nameof(List<int>.Contains) && call.Object is not null))
        {
            var source = call.Object ?? call.Arguments[0];
            var arguments = call.Object is null ? call.Arguments.Skip(1).ToList() : [.. call.Arguments];
            if (Unwrap(source).Type == typeof(byte[]) && DependsOnAny(source))
                throw Unsupported(call, "a byte[] is written as one base64 string, not as an array of numbers; look at its bytes on the client");
            switch (method.Name)
            {
                case nameof(Enumerable.Contains) when arguments.Count == 1 && !DependsOnAny(source):
                    return In(arguments[0], Evaluate(source) as IEnumerable ?? throw Unsupported(call, "the list is null"), scope, call);
                case nameof(Enumerable.Contains) when arguments.Count == 1:
                {
                    var items = Field(source, scope, call);
                    var (suffix, term) = Term(items with { ThroughCollection = true }, Evaluate(arguments[0]) ?? throw Unsupported(call, "looking for null"), call);
                    return $"{items.Path}{suffix}:{term}";
                }
                case nameof(Enumerable.Any) when arguments.Count == 0:
                    return $"{CountPath(source, scope, call)}{TypedFieldSuffixes.Count}:{{\"0\" TO *]";
                case nameof(Enumerable.Any) when arguments is [LambdaExpression inner]:
                {
                    var collection = CollectionPath(source, scope, call);
                    var itemScope = new Scope(inner.Parameters[0], collection, scope, ItemConverter(source));
                    return CheckOneElement(inner, itemScope) ? OneRange(inner, itemScope) : Clause(inner.Body, itemScope);
                }
            }
            throw Unsupported(call, $"Enumerable.{method.Name} is not supported here");
        }
        if (method.Name == nameof(Equals) && call.Object is { } left && call.Arguments is [var right])
            return Comparison(Expression.Equal(Unwrap(left), Expression.Convert(right, Unwrap(left).Type)), scope);
        throw Unsupported(call, $"the method '{method.DeclaringType?.Name}.{method.Name}' is not supported");
    }

    /// <summary>
    /// C# 14 binds <c>array.Contains(value)</c> to <see cref="MemoryExtensions"/>' span overload, through an implicit
    /// conversion of the array to a span, which an expression tree keeps as written: read it as the
    /// <see cref="Enumerable.Contains{TSource}(IEnumerable{TSource}, TSource)"/> it means. Null for any other call.
    /// </summary>
    private static MethodCallExpression? AsEnumerableContains(MethodCallExpression call)
    {
        // The overload with a comparer (taken for element types that are not IEquatable, such as enums) counts only without one.
        if (call.Method.DeclaringType != typeof(MemoryExtensions) || call.Method.Name != nameof(MemoryExtensions.Contains)
            || call.Arguments.Count is not (2 or 3) || (call.Arguments.Count == 3 && call.Arguments[2] is not ConstantExpression { Value: null }))
            return null;
        var source = call.Arguments[0] switch
        {
            MethodCallExpression { Method.Name: "op_Implicit", Arguments: [var array] } => array,
            UnaryExpression { NodeType: ExpressionType.Convert, Method.Name: "op_Implicit" } conversion => conversion.Operand,
            _ => null,
        };
        if (source is null || !source.Type.IsArray)
            return null;
        var element = source.Type.GetElementType()!;
        return Expression.Call(typeof(Enumerable), nameof(Enumerable.Contains), [element], source, call.Arguments[1]);
    }

    /// <summary><c>ids.Contains(x.Member)</c>: any of the values, in groups small enough for one Lucene boolean query each.</summary>
    private string In(Expression memberExpression, IEnumerable values, Scope scope, Expression whole)
    {
        var member = Field(Unwrap(memberExpression), scope, whole);
        var terms = new List<string>();
        var hasNull = false;
        foreach (var value in values)
        {
            if (value is null)
            {
                hasNull = true;
                continue;
            }
            var (suffix, term) = Term(member, value, whole);
            terms.Add($"{member.Path}{suffix}:{term}");
        }
        if (hasNull)
            terms.Add($"{member.Path}{TypedFieldSuffixes.Null}:true");
        if (member.Omitted is { } omitted)
        {
            var defaultMatches = values.Cast<object?>().Any(value => value is not null && Equals(AsMemberType(member, value, whole), omitted));
            return WithOmitted(member, terms.Count == 0 ? Nothing : Group(terms), defaultMatches, whole);
        }
        return terms.Count == 0 ? Nothing : Group(terms);

        static string Group(List<string> terms)
        {
            const int group = 512;
            var groups = terms.Chunk(group).Select(chunk => "(" + string.Join(" OR ", chunk) + ")").ToList();
            return groups.Count == 1 ? groups[0] : "(" + string.Join(" OR ", groups) + ")";
        }
    }

    /// <summary>
    /// Inside <c>Any</c>, every condition must hold for the same item: an index of separate fields can promise that only
    /// when the predicate reads one value of the item and combines conditions on it with <c>||</c>, or with <c>&amp;&amp;</c>
    /// into one range (<see cref="OneRange"/>).
    /// </summary>
    /// <returns>Whether the predicate combines conditions on its one value with <c>&amp;&amp;</c>.</returns>
    private bool CheckOneElement(LambdaExpression inner, Scope itemScope)
    {
        var paths = new HashSet<string>(StringComparer.Ordinal);
        var ands = false;
        var negated = false;
        new Walker(node =>
        {
            switch (node)
            {
                case BinaryExpression { NodeType: ExpressionType.AndAlso }:
                    ands = true;
                    break;
                case UnaryExpression { NodeType: ExpressionType.Not }:
                case BinaryExpression { NodeType: ExpressionType.NotEqual }:
                    negated = true;
                    break;
                case MemberExpression member when ReadsParameter(member, itemScope.Parameter):
                    paths.Add(Field(member, itemScope, inner).Path);
                    return false;
                case ParameterExpression parameter when parameter == itemScope.Parameter:
                    paths.Add(itemScope.Prefix);
                    break;
            }
            return true;
        }).Visit(inner.Body);
        if (paths.Count > 1 && ands)
            throw Unsupported(inner,
                "with '&&' over several members of an item, Any must match them on one item, which queries of separate index fields cannot promise; " +
                "define a map/reduce or an index with one entry per item, or split the condition");
        if (negated)
            throw Unsupported(inner, "a negation inside Any ('!=' or '!') would mean 'some item differs', which is not supported");
        return ands;
    }

    /// <summary>
    /// <c>x.Lines.Any(l =&gt; l.Quantity &gt; 1 &amp;&amp; l.Quantity &lt;= 5)</c>: comparisons of one numeric value of the item
    /// joined by <c>&amp;&amp;</c>, as the one range they leave, which one value (so one item) must fall in. Two ranges
    /// would each match any item's value.
    /// </summary>
    private string OneRange(LambdaExpression inner, Scope itemScope)
    {
        const string refusal = "'&&' inside Any is answered for comparisons of one number of the item with values (one range); " +
                               "two conditions of other kinds may match two different items";
        var conjuncts = new List<Expression>();
        Flatten(inner.Body);
        FieldRef? member = null;
        (object Value, bool Inclusive)? lower = null, upper = null;
        BinaryExpression? lowerComparison = null, upperComparison = null;
        foreach (var conjunct in conjuncts)
        {
            if (conjunct is not BinaryExpression { NodeType: ExpressionType.Equal or ExpressionType.LessThan or ExpressionType.LessThanOrEqual
                or ExpressionType.GreaterThan or ExpressionType.GreaterThanOrEqual } comparison
                || DependsOnAny(comparison.Left) == DependsOnAny(comparison.Right))
                throw Unsupported(inner, refusal);
            var leftDepends = DependsOnAny(comparison.Left);
            var (memberSide, valueSide, op) = leftDepends
                ? (comparison.Left, comparison.Right, comparison.NodeType)
                : (comparison.Right, comparison.Left, Flip(comparison.NodeType));
            var field = Field(Unwrap(memberSide), itemScope, inner);
            if (field.Kind is not (Kind.Exact or Kind.Number) || EnumType(field) is not null || field.Omitted is not null || field.Converter is not null)
                throw Unsupported(inner, refusal);
            ThrowIfStoredOutOfOrder(field, comparison, "compared by order");
            member ??= field;
            var raw = Evaluate(valueSide);
            if (field.Path != member.Value.Path || raw is null)
                throw Unsupported(inner, refusal);
            var value = AsMemberType(field, raw, comparison);
            if (value is double or float && !double.IsFinite(Convert.ToDouble(value, CultureInfo.InvariantCulture)))
                throw Unsupported(inner, refusal);
            if (op is ExpressionType.Equal or ExpressionType.GreaterThan or ExpressionType.GreaterThanOrEqual
                && Tighter(lower, value, op != ExpressionType.GreaterThan, lowerBound: true))
                (lower, lowerComparison) = ((value, op != ExpressionType.GreaterThan), comparison);
            if (op is ExpressionType.Equal or ExpressionType.LessThan or ExpressionType.LessThanOrEqual
                && Tighter(upper, value, op != ExpressionType.LessThan, lowerBound: false))
                (upper, upperComparison) = ((value, op != ExpressionType.LessThan), comparison);
        }
        var one = member!.Value;
        // One end only (x > 1 && x > 2): the tighter comparison, answered as it is alone.
        if (upper is null)
            return MemberComparison(one, Op(lower!.Value, lowerBound: true), lower.Value.Value, lowerComparison!);
        if (lower is null)
            return MemberComparison(one, Op(upper.Value, lowerBound: false), upper.Value.Value, upperComparison!);
        var order = Comparer<object>.Default.Compare(lower.Value.Value, upper.Value.Value);
        if (order > 0 || (order == 0 && !(lower.Value.Inclusive && upper.Value.Inclusive)))
            return Nothing;
        var (suffix, low) = Term(one, lower.Value.Value, inner);
        var (_, high) = Term(one, upper.Value.Value, inner);
        return $"{one.Path}{suffix}:{(lower.Value.Inclusive ? "[" : "{")}{RangeEnd(low)} TO {RangeEnd(high)}{(upper.Value.Inclusive ? "]" : "}")}";

        void Flatten(Expression expression)
        {
            if (expression is BinaryExpression { NodeType: ExpressionType.AndAlso } and)
            {
                Flatten(and.Left);
                Flatten(and.Right);
            }
            else
            {
                conjuncts.Add(Unwrap(expression));
            }
        }

        static ExpressionType Op((object Value, bool Inclusive) end, bool lowerBound) => (lowerBound, end.Inclusive) switch
        {
            (true, true) => ExpressionType.GreaterThanOrEqual,
            (true, false) => ExpressionType.GreaterThan,
            (false, true) => ExpressionType.LessThanOrEqual,
            _ => ExpressionType.LessThan,
        };

        // Whether (value, inclusive) narrows the range more than the end kept so far.
        static bool Tighter((object Value, bool Inclusive)? kept, object value, bool inclusive, bool lowerBound)
        {
            if (kept is not { } end)
                return true;
            var order = Comparer<object>.Default.Compare(value, end.Value);
            return order == 0 ? end.Inclusive && !inclusive : lowerBound ? order > 0 : order < 0;
        }
    }

    private static bool ReadsParameter(MemberExpression member, ParameterExpression parameter)
    {
        Expression? current = member;
        while (current is MemberExpression m)
            current = m.Expression is { } owner ? Unwrap(owner) : null;
        return current == parameter;
    }

    /// <summary>The term of <paramref name="value"/> compared as <paramref name="member"/>'s kind, quoted.</summary>
    private (string Suffix, string Term) Term(FieldRef member, object value, Expression expression)
    {
        value = AsMemberType(member, value, expression);
        if (member.Converter is not null || (member.Kind == Kind.Instant && !serializer.WritesIsoDates))
            return ConvertedTerm(member, serializer.ToWrittenToken(value, member.Converter), expression);
        switch (member.Kind)
        {
            case Kind.Instant:
                var ticks = value switch
                {
                    DateTime time => (time.Kind == DateTimeKind.Local ? time.ToUniversalTime() : time).Ticks,
                    DateTimeOffset offset => offset.UtcTicks,
                    _ => throw Unsupported(expression, $"a {value.GetType().Name} compared with a date member"),
                };
                return (TypedFieldSuffixes.Instant, Quote(ticks.ToString(CultureInfo.InvariantCulture)));
            case Kind.Number:
                var number = value switch
                {
                    float single => single.ToString("R", CultureInfo.InvariantCulture),
                    double wide => wide.ToString("R", CultureInfo.InvariantCulture),
                    IConvertible convertible => Convert.ToDouble(convertible, CultureInfo.InvariantCulture).ToString("R", CultureInfo.InvariantCulture),
                    _ => throw Unsupported(expression, $"a {value.GetType().Name} compared with a number"),
                };
                if (value is double.NaN or float.NaN)
                    throw Unsupported(expression, "NaN equals nothing in C#; compare with double.IsNaN on the client");
                if (value is double d && double.IsInfinity(d) || value is float f && float.IsInfinity(f))
                    throw Unsupported(expression, "infinities are not indexed");
                return (TypedFieldSuffixes.Number, Quote(number));
            case Kind.Exact:
                var token = serializer.ToToken(value);
                if (token.Type == JTokenType.String)
                    return ("", Quote((string)token!));
                var exact = value switch
                {
                    Enum e => Convert.ToDecimal(Convert.ChangeType(e, Enum.GetUnderlyingType(e.GetType()), CultureInfo.InvariantCulture), CultureInfo.InvariantCulture),
                    IConvertible convertible => Convert.ToDecimal(convertible, CultureInfo.InvariantCulture),
                    _ => throw Unsupported(expression, $"a {value.GetType().Name} compared with a number"),
                };
                return (TypedFieldSuffixes.Exact, Quote(exact.ToString(CultureInfo.InvariantCulture)));
            case Kind.Boolean:
                return ("", value is true ? "true" : "false");
            default:
                return ("", Quote(TextOf(value)));
        }
    }

    /// <summary>A value as the member's own converter wrote it, compared as the index holds that JSON: text, exact number, double, boolean.</summary>
    private static (string Suffix, string Term) ConvertedTerm(FieldRef member, JToken token, Expression expression)
    {
        return token.Type switch
        {
            JTokenType.String => ("", Quote((string)token!)),
            JTokenType.Integer => (TypedFieldSuffixes.Exact, Quote(token.ToString(Formatting.None))),
            JTokenType.Float when token.ToObject<double>() is var number && double.IsFinite(number) =>
                (TypedFieldSuffixes.Number, Quote(number.ToString("R", CultureInfo.InvariantCulture))),
            JTokenType.Boolean => ("", (bool)token! ? "true" : "false"),
            JTokenType.Null => (TypedFieldSuffixes.Null, "true"),
            _ => throw Unsupported(expression, $"'{member.Path}' is written by its own JsonConverter as {token.Type}, which a query cannot compare"),
        };
    }

    /// <summary>
    /// The value as the member's own type: C# compares an enum or char member through its number, and a float member
    /// with a double as a double; the value must be one the member can hold, or the comparison would not be C#'s.
    /// </summary>
    private static object AsMemberType(FieldRef member, object value, Expression expression)
    {
        var type = ValueType(member.Type);
        if (type.IsInstanceOfType(value))
            return value;
        if (type.IsEnum && value is IConvertible)
            return Enum.ToObject(type, value);
        if (type == typeof(char) && value is int code)
            return (char)code;
        if (type == typeof(float) && value is double wide)
        {
            if (double.IsNaN(wide) || (double)(float)wide != wide)
                throw Unsupported(expression, $"a float member is compared with the double {wide.ToString("R", CultureInfo.InvariantCulture)}, which no float equals; compare with a float value");
            return (float)wide;
        }
        return value;
    }

    /// <summary>A value as the store's serializer writes it, as text (a Guid, a char, a TimeSpan, a string enum...).</summary>
    private string TextOf(object value)
    {
        if (value is string text)
            return text;
        var json = serializer.ToToken(value).ToString(Formatting.None);
        using var reader = new JsonTextReader(new StringReader(json)) { DateParseHandling = DateParseHandling.None };
        reader.Read();
        return reader.Value is string written ? written : Convert.ToString(reader.Value, CultureInfo.InvariantCulture) ?? "";
    }

    private static string Suffix(Kind kind) => kind switch
    {
        Kind.Exact => TypedFieldSuffixes.Exact,
        Kind.Number => TypedFieldSuffixes.Number,
        Kind.Instant => TypedFieldSuffixes.Instant,
        _ => "",
    };

    /// <summary>The path and kind of a member chain from the entity (or from an item in <c>Any</c>).</summary>
    /// <remarks>With <c>nullCheck</c> (the member is only compared with null) an object member, written as a JSON
    /// object of its own members, is allowed too: the index marks it null or missing.</remarks>
    private FieldRef Field(Expression expression, Scope scope, Expression whole, bool nullCheck = false)
    {
        expression = Unwrap(expression);
        // x.Discount.Value on a nullable: the member itself.
        if (expression is MemberExpression { Member.Name: "Value", Expression: { } nullable } && Nullable.GetUnderlyingType(nullable.Type) is not null)
            expression = Unwrap(nullable);
        var names = new List<string>();
        var current = expression;
        var throughCollection = false;
        while (current is MemberExpression member)
        {
            var owner = Unwrap(member.Expression ?? throw Unsupported(whole, "a static member is a value, not a member of the entity"));
            if (member.Member.Name is "Value" or "HasValue" && Nullable.GetUnderlyingType(owner.Type) is not null)
                throw Unsupported(whole, $"'{member}' inside a chain is not supported");
            if (serializer.WritesAsValue(owner.Type) || (member.Member.Name is "Count" or "Length" && IsCollection(owner.Type)))
                throw Unsupported(whole, $"'{member.Member.DeclaringType?.Name}.{member.Member.Name}' is computed by .NET, not stored in the document; " +
                    "store the value in a member of its own, or filter on the client after the query");
            ThrowIfDictionary(owner.Type, whole);
            names.Add(JsonName(owner.Type, member.Member));
            if (owner is MemberExpression ownerMember && IsCollection(ownerMember.Type))
                throwCollection(ownerMember);
            current = owner;
        }
        if (current is ParameterExpression parameter)
        {
            var (found, inItem) = ScopeOf(parameter, scope, whole);
            names.Reverse();
            var path = string.Join('.', (found.Prefix.Length > 0 ? [found.Prefix] : Array.Empty<string>()).Concat(names));
            if (path.Length == 0)
                throw Unsupported(whole, "it compares the entity itself; compare one of its members");
            // A member has its own converter and left-out default; an item of a collection (x => x.Tags.Any(t => t == v)) the collection's item converter.
            var (converter, omitted) = expression is MemberExpression last
                ? (ValueConverter(last, whole), OmittedDefault(Unwrap(last.Expression!).Type, last.Member, last.Type))
                : (found.ItemConverter, null);
            var kind = nullCheck && (serializer.WritesAsObject(expression.Type)
                || (IsCollection(expression.Type) && ElementType(expression.Type) is { } item && serializer.WritesAsObject(item)))
                ? Kind.Text
                : KindOf(expression.Type, whole);
            return new FieldRef(path, expression.Type, kind, throughCollection || inItem, converter, omitted);
        }
        throw Unsupported(whole, $"'{expression}' is not a chain of members of the entity");

        void throwCollection(MemberExpression collection) =>
            throw Unsupported(whole, $"'{collection}' is a collection: use Any(item => ...), Contains or Count");
    }

    /// <summary>The converter of a member's values: its own, or for a collection member its items' (a converter of the whole collection is refused).</summary>
    private JsonConverter? ValueConverter(MemberExpression member, Expression whole)
    {
        var owner = Unwrap(member.Expression!).Type;
        var value = ConverterOf(owner, member.Member, member.Type, items: false);
        if (!IsCollection(member.Type))
            return value;
        if (value is not null)
            throw Unsupported(whole, $"'{member}' is written by a JsonConverter ({value.GetType().Name}), so its items are not what the index holds");
        return ElementType(member.Type) is { } element ? ConverterOf(owner, member.Member, element, items: true) : null;
    }

    /// <summary>The converter of the items of the collection <paramref name="source"/> names, if it is a member whose items have one.</summary>
    private JsonConverter? ItemConverter(Expression source) =>
        Unwrap(source) is MemberExpression member && IsCollection(member.Type) && member.Expression is { } owner && ElementType(member.Type) is { } element
            ? ConverterOf(Unwrap(owner).Type, member.Member, element, items: true)
            : null;

    private static (Scope Scope, bool InItem) ScopeOf(ParameterExpression parameter, Scope scope, Expression whole)
    {
        for (var at = scope; at is not null; at = at.Outer)
        {
            if (at.Parameter == parameter)
                return (at, at.Outer is not null);
        }
        throw Unsupported(whole, $"'{parameter.Name}' is not the query's entity");
    }

    /// <summary>A member collection's path for <c>Any</c> (a collection of items or of values).</summary>
    private string CollectionPath(Expression source, Scope scope, Expression whole)
    {
        source = Unwrap(source);
        if (!IsCollection(source.Type))
            throw Unsupported(whole, "Any needs a collection member");
        ThrowIfDictionary(source.Type, whole);
        if (source is ParameterExpression)
            throw Unsupported(whole, "Any over the entity itself is a query of its own");
        return FieldOfCollection(source, scope, whole);
    }

    private string CountPath(Expression source, Scope scope, Expression whole)
    {
        var path = CollectionPath(source, scope, whole);
        if (scope.Outer is not null)
            throw Unsupported(whole, "counting the items of a collection inside Any is not supported");
        return path;
    }

    private string FieldOfCollection(Expression source, Scope scope, Expression whole)
    {
        var names = new List<string>();
        var current = Unwrap(source);
        while (current is MemberExpression member)
        {
            var owner = Unwrap(member.Expression ?? throw Unsupported(whole, "a static collection"));
            ThrowIfDictionary(owner.Type, whole);
            names.Add(JsonName(owner.Type, member.Member));
            current = owner;
        }
        if (current is not ParameterExpression parameter)
            throw Unsupported(whole, $"'{source}' is not a member collection of the entity");
        var prefix = ScopeOf(parameter, scope, whole).Scope.Prefix;
        names.Reverse();
        return string.Join('.', (prefix.Length > 0 ? [prefix] : Array.Empty<string>()).Concat(names));
    }

    /// <summary><c>x.Tags.Count</c>, <c>x.Tags.Length</c> or <c>x.Tags.Count()</c>: the collection's path; else null.</summary>
    private string? CountOf(Expression expression, Scope scope)
    {
        switch (expression)
        {
            case MemberExpression { Member.Name: "Count" or "Length", Expression: { } owner } when IsCollection(owner.Type) && owner.Type != typeof(string):
                return CountPath(owner, scope, expression);
            case MethodCallExpression { Method.Name: nameof(Enumerable.Count) or nameof(Enumerable.LongCount), Method.DeclaringType: var type, Arguments: [var source] }
                when type == typeof(Enumerable):
                return CountPath(source, scope, expression);
            default:
                return null;
        }
    }

    private static Kind KindOf(Type type, Expression whole)
    {
        var underlying = Nullable.GetUnderlyingType(type) ?? type;
        if (underlying == typeof(string) || underlying == typeof(char) || underlying == typeof(Guid) || underlying == typeof(TimeSpan)
            || underlying == typeof(Uri))
            return Kind.Text;
        if (underlying == typeof(bool))
            return Kind.Boolean;
        if (underlying == typeof(DateTime) || underlying == typeof(DateTimeOffset))
            return Kind.Instant;
        if (underlying == typeof(double) || underlying == typeof(float))
            return Kind.Number;
        if (underlying.IsEnum || underlying == typeof(decimal) || underlying == typeof(int) || underlying == typeof(long)
            || underlying == typeof(short) || underlying == typeof(byte) || underlying == typeof(sbyte) || underlying == typeof(uint)
            || underlying == typeof(ulong) || underlying == typeof(ushort))
            return Kind.Exact;
        if (IsCollection(underlying) && ElementType(underlying) is { } element)
            return KindOf(element, whole);
        if (underlying == typeof(byte[]))
            return Kind.Text; // base64 text: only null checks mean the same in C# (arrays compare by reference)
        throw Unsupported(whole, $"members of type {type.Name} cannot be compared in a query");
    }

    // A byte[] is written as one base64 string, not as an array of numbers.
    private static bool IsCollection(Type type) => type != typeof(string) && type != typeof(byte[]) && typeof(IEnumerable).IsAssignableFrom(type);

    /// <summary>
    /// A dictionary is written as a JSON object, one property per key, not as an array of key/value pairs: counting its
    /// entries, looking into them with Any, or reading Keys or Values would ask the index for items it does not hold.
    /// </summary>
    private static void ThrowIfDictionary(Type type, Expression whole)
    {
        // Most owners are not collections at all: only those are looked into (GetInterfaces allocates on every call).
        if (!IsCollection(type))
            return;
        if (type.IsAssignableTo(typeof(IDictionary)) || type.GetInterfaces().Append(type).Any(i => i.IsGenericType
                && (i.GetGenericTypeDefinition() == typeof(IDictionary<,>) || i.GetGenericTypeDefinition() == typeof(IReadOnlyDictionary<,>))))
            throw Unsupported(whole, $"a {type.Name} is written as a JSON object with a property per key, not as a collection of entries; " +
                "store the entries as a list of items to query them, or filter on the client after the query");
    }

    private static Type? ElementType(Type type) =>
        type.IsArray ? type.GetElementType()
        : type.GetInterfaces().Append(type).FirstOrDefault(i => i.IsGenericType && i.GetGenericTypeDefinition() == typeof(IEnumerable<>))?.GetGenericArguments()[0];

    private static ExpressionType Flip(ExpressionType op) => op switch
    {
        ExpressionType.LessThan => ExpressionType.GreaterThan,
        ExpressionType.LessThanOrEqual => ExpressionType.GreaterThanOrEqual,
        ExpressionType.GreaterThan => ExpressionType.LessThan,
        ExpressionType.GreaterThanOrEqual => ExpressionType.LessThanOrEqual,
        _ => op,
    };

    private static Expression Unwrap(Expression expression) =>
        expression is UnaryExpression { NodeType: ExpressionType.Convert or ExpressionType.ConvertChecked or ExpressionType.Quote } convert
            ? Unwrap(convert.Operand)
            : expression;

    /// <summary>
    /// Whether <paramref name="expression"/> reads the entity or an item of <c>Any</c>: a parameter no lambda inside it
    /// declares. A list computed with a lambda of its own (<c>ids.Where(i =&gt; i &gt; 0)</c>) is a value.
    /// </summary>
    private static bool DependsOnAny(Expression expression) => UnboundParameters.In(expression);

    /// <summary>
    /// The value of an expression that does not read the entity: constants and captured variables (fields of a closure,
    /// static fields and properties) are read directly, since compiling a lambda per value was most of a translation;
    /// anything else is interpreted.
    /// </summary>
    internal static object? Evaluate(Expression expression) => CapturedValues.Read(expression, EvaluateNow);

    private static readonly Func<Expression, object?> EvaluateNow = Evaluated;

    private static object? Evaluated(Expression expression)
    {
        switch (expression)
        {
            case ConstantExpression constant:
                return constant.Value;
            case MemberExpression { Member: FieldInfo field } member:
                return field.GetValue(member.Expression is null ? null : Evaluated(member.Expression));
            case MemberExpression { Member: PropertyInfo { GetMethod.IsStatic: true } property, Expression: null }:
                return property.GetValue(null);
            case UnaryExpression { NodeType: ExpressionType.Convert, Operand: var operand } convert
                when Nullable.GetUnderlyingType(convert.Type) == operand.Type || convert.Type == typeof(object):
                return Evaluated(operand);
            default:
                if (DependsOnAny(expression))
                    throw Unsupported(expression, "a value is needed here, and it reads the entity; compare a member with a value");
                return Expression.Lambda<Func<object?>>(Expression.Convert(expression, typeof(object))).Compile(preferInterpretation: true)();
        }
    }

    /// <summary>Finds a parameter that no lambda inside the expression declares: the query's entity, or an item in <c>Any</c>.</summary>
    private sealed class UnboundParameters : ExpressionVisitor
    {
        private readonly HashSet<ParameterExpression> _declared = [];
        private bool _found;

        public static bool In(Expression expression)
        {
            var finder = new UnboundParameters();
            finder.Visit(expression);
            return finder._found;
        }

        protected override Expression VisitLambda<T>(Expression<T> node)
        {
            _declared.UnionWith(node.Parameters);
            return base.VisitLambda(node);
        }

        protected override Expression VisitBlock(BlockExpression node)
        {
            _declared.UnionWith(node.Variables);
            return base.VisitBlock(node);
        }

        protected override CatchBlock VisitCatchBlock(CatchBlock node)
        {
            if (node.Variable is { } variable)
                _declared.Add(variable);
            return base.VisitCatchBlock(node);
        }

        protected override Expression VisitParameter(ParameterExpression node)
        {
            _found |= !_declared.Contains(node);
            return node;
        }
    }

    /// <summary>A phrase term: only <c>"</c> and <c>\</c> are escaped, so every other code point stays as it is.</summary>
    internal static string Quote(string text) =>
        "\"" + text.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal) + "\"";

    /// <summary>An unquoted term (prefix and wildcard patterns): a backslash before each of Lucene's syntax characters and whitespace.</summary>
    internal static string Escape(string text)
    {
        var escaped = new StringBuilder(text.Length + 8);
        foreach (var rune in text.EnumerateRunes())
        {
            if (rune.IsBmp && ("+-&|!(){}[]^\"~*?:\\/".Contains((char)rune.Value, StringComparison.Ordinal) || Rune.IsWhiteSpace(rune)))
                escaped.Append('\\');
            escaped.Append(rune.ToString());
        }
        return escaped.ToString();
    }

    internal static NotSupportedException Unsupported(Expression expression, string why) => new(
        $"The query expression '{expression}' is not supported: {why}. Supported: ==, !=, <, <=, >, >= with values, &&, ||, !, " +
        "null and HasValue checks, bool members, StartsWith/EndsWith/Contains/Equals (Ordinal or OrdinalIgnoreCase), string.IsNullOrEmpty, " +
        "collection Contains/Any()/Any(item => condition on one value)/Count, list.Contains(x.Member); or give a Lucene query string to Where.");

    /// <summary>Replaces one node (by reference) with another.</summary>
    private sealed class Replacer(Expression from, Expression to) : ExpressionVisitor
    {
        public override Expression? Visit(Expression? node) => node == from ? to : base.Visit(node);
    }

    private sealed class Walker(Func<Expression, bool> visit) : ExpressionVisitor
    {
        public override Expression? Visit(Expression? node) => node is null || !visit(node) ? node : base.Visit(node);
    }
}
