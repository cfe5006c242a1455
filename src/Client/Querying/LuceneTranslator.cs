using System.Globalization;
using System.Linq.Expressions;
using System.Text;

namespace RavenLite.Client.Querying;

/// <summary>
/// Translates a small LINQ subset into the Lucene query string: <c>==</c>, <c>&lt;</c>, <c>&lt;=</c>, <c>&gt;</c>,
/// <c>&gt;=</c>, <c>&amp;&amp;</c>, <c>||</c>, <c>string.StartsWith</c> and <c>collection.Any(x =&gt; x.P == v)</c>.
/// The index field is the member's name (a nested member <c>c.Customer.Name</c> is <c>Customer.Name</c>; inside
/// <c>Any</c>, the item's member, so <c>c.Items.Any(i =&gt; i.ProductId == 42)</c> is <c>ProductId:42</c>). Anything else
/// is a <see cref="NotSupportedException"/> naming it.
/// </summary>
internal static class LuceneTranslator
{
    public static string Translate(LambdaExpression predicate) => Clause(predicate.Body);

    /// <summary>The index field <c>OrderBy(x =&gt; x.Member)</c> sorts by: the member's name.</summary>
    public static string SortField(LambdaExpression selector) => Field(selector.Body);

    private static string Clause(Expression expression) => expression switch
    {
        BinaryExpression { NodeType: ExpressionType.AndAlso } and => $"({Clause(and.Left)}) AND ({Clause(and.Right)})",
        BinaryExpression { NodeType: ExpressionType.OrElse } or => $"({Clause(or.Left)}) OR ({Clause(or.Right)})",
        BinaryExpression binary => Comparison(binary),
        MethodCallExpression { Method.Name: nameof(string.StartsWith), Object: { } target, Arguments: [var prefix] }
            when target.Type == typeof(string) => $"{Field(target)}:{Escape(Format(Evaluate(prefix) ?? throw Unsupported(expression), quote: false))}*",
        MethodCallExpression { Method.Name: nameof(Enumerable.Any), Method.DeclaringType: var type, Arguments: [_, LambdaExpression inner] }
            when type == typeof(Enumerable) => Clause(inner.Body),
        _ => throw Unsupported(expression),
    };

    private static string Comparison(BinaryExpression binary)
    {
        var (member, value, op) = DependsOnParameter(binary.Left)
            ? (binary.Left, binary.Right, binary.NodeType)
            : (binary.Right, binary.Left, Flip(binary.NodeType));
        if (!DependsOnParameter(member) || DependsOnParameter(value))
            throw Unsupported(binary);
        var field = Field(member);
        var constant = Evaluate(value);
        if (constant is null)
            throw new NotSupportedException($"Comparing with null is not supported in a query ('{binary}'); index a field and query 'Field:*' instead.");
        var text = Format(constant, quote: true);
        return op switch
        {
            ExpressionType.Equal => $"{field}:{text}",
            ExpressionType.LessThan => $"{field}:{{* TO {text}}}",
            ExpressionType.LessThanOrEqual => $"{field}:[* TO {text}]",
            ExpressionType.GreaterThan => $"{field}:{{{text} TO *}}",
            ExpressionType.GreaterThanOrEqual => $"{field}:[{text} TO *]",
            _ => throw Unsupported(binary),
        };
    }

    private static ExpressionType Flip(ExpressionType op) => op switch
    {
        ExpressionType.LessThan => ExpressionType.GreaterThan,
        ExpressionType.LessThanOrEqual => ExpressionType.GreaterThanOrEqual,
        ExpressionType.GreaterThan => ExpressionType.LessThan,
        ExpressionType.GreaterThanOrEqual => ExpressionType.LessThanOrEqual,
        _ => op,
    };

    /// <summary>The index field a member chain names: <c>c.Customer.Name</c> is <c>Customer.Name</c>.</summary>
    private static string Field(Expression expression)
    {
        var names = new Stack<string>();
        var current = StripConvert(expression);
        while (current is MemberExpression member)
        {
            names.Push(member.Member.Name);
            current = StripConvert(member.Expression!);
        }
        if (current is not ParameterExpression || names.Count == 0)
            throw Unsupported(expression);
        return string.Join('.', names);
    }

    private static Expression StripConvert(Expression expression) =>
        expression is UnaryExpression { NodeType: ExpressionType.Convert or ExpressionType.ConvertChecked } convert ? StripConvert(convert.Operand) : expression;

    private static bool DependsOnParameter(Expression expression) => new ParameterFinder().Finds(expression);

    private static object? Evaluate(Expression expression) => CapturedValues.Read(expression, EvaluateNow);

    private static readonly Func<Expression, object?> EvaluateNow = static expression => expression is ConstantExpression constant
        ? constant.Value
        : Expression.Lambda<Func<object?>>(Expression.Convert(expression, typeof(object))).Compile(preferInterpretation: true)();

    /// <summary>A value as a query term: numbers and booleans as they are, everything else quoted (or escaped for prefixes).</summary>
    private static string Format(object value, bool quote) => value switch
    {
        bool b => b ? "true" : "false",
        double d => Escape(d.ToString("R", CultureInfo.InvariantCulture)),
        float f => Escape(f.ToString("R", CultureInfo.InvariantCulture)),
        IFormattable number when value is sbyte or byte or short or ushort or int or uint or long or ulong or decimal =>
            Escape(number.ToString(null, CultureInfo.InvariantCulture)),
        Enum e => Escape(Convert.ToInt64(e, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture)),
        DateTime dt => Quote(dt.ToString("O", CultureInfo.InvariantCulture), quote),
        DateTimeOffset dto => Quote(dto.ToString("O", CultureInfo.InvariantCulture), quote),
        _ => Quote(Convert.ToString(value, CultureInfo.InvariantCulture) ?? "", quote),
    };

    private static string Quote(string text, bool quote) =>
        quote ? "\"" + text.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal) + "\"" : text;

    /// <summary>Backslash before every code point that is not a letter or digit, so none is read as syntax (a surrogate pair stays whole).</summary>
    private static string Escape(string text)
    {
        var escaped = new StringBuilder(text.Length + 4);
        foreach (var rune in text.EnumerateRunes())
        {
            if (!Rune.IsLetterOrDigit(rune))
                escaped.Append('\\');
            escaped.Append(rune.ToString());
        }
        return escaped.ToString();
    }

    private static NotSupportedException Unsupported(Expression expression) => new(
        $"The query expression '{expression}' is not supported. Supported: member == value, <, <=, >, >=, &&, ||, " +
        "string StartsWith, and collection.Any(x => x.Member == value); or give a Lucene query string to Where.");

    private sealed class ParameterFinder : ExpressionVisitor
    {
        private bool _found;

        public bool Finds(Expression expression)
        {
            Visit(expression);
            return _found;
        }

        protected override Expression VisitParameter(ParameterExpression node)
        {
            _found = true;
            return node;
        }
    }
}
