using System.Collections;
using System.Linq.Expressions;

namespace RavenLite.Client.Querying;

/// <summary>
/// The values a translation read from outside the query's entity (captured variables, a method's result,
/// <c>DateTime.UtcNow</c>), each with the expression that gave it, so that a later run of the query can tell whether
/// it would translate differently: LINQ providers read such values when a query runs, not when it is written.
/// </summary>
internal sealed class CapturedValues
{
    [ThreadStatic]
    private static CapturedValues? t_recording;

    [ThreadStatic]
    private static int t_depth;

    private readonly List<(Expression Expression, Func<Expression, object?> Evaluate, object? Value)> _values = [];

    /// <summary>
    /// Runs <paramref name="translate"/>, recording the values it reads through <see cref="Read"/>; null when it read
    /// none that could change.
    /// </summary>
    public static (string Text, CapturedValues? Captured) Record(Func<string> translate)
    {
        var (outer, outerDepth) = (t_recording, t_depth);
        var captured = new CapturedValues();
        (t_recording, t_depth) = (captured, 0);
        try
        {
            var text = translate();
            return (text, captured._values.Count > 0 ? captured : null);
        }
        finally
        {
            (t_recording, t_depth) = (outer, outerDepth);
        }
    }

    /// <summary>
    /// The value of <paramref name="expression"/> by <paramref name="evaluate"/>, recorded when a translation is being
    /// recorded (only the outermost read: the parts of a value it reads on the way are not values of their own).
    /// </summary>
    public static object? Read(Expression expression, Func<Expression, object?> evaluate)
    {
        if (t_recording is not { } recording || t_depth > 0)
            return evaluate(expression);
        t_depth++;
        object? value;
        try
        {
            value = evaluate(expression);
        }
        finally
        {
            t_depth--;
        }
        if (!Fixed.Is(expression))
            recording._values.Add((expression, evaluate, Snapshot(value)));
        return value;
    }

    /// <summary>Whether a value read by the translation is now another (a collection's items are compared one by one).</summary>
    public bool Changed()
    {
        foreach (var (expression, evaluate, value) in _values)
        {
            var now = evaluate(expression);
            if (value is object?[] items ? now is not IEnumerable sequence || now is string || !items.SequenceEqual(sequence.Cast<object?>()) : !Equals(value, now))
                return true;
        }
        return false;
    }

    /// <summary>
    /// Whether an expression always gives the same value: constants of immutable types, and what is built from them
    /// (<c>new[] { 1, 2 }</c>, <c>new DateTime(2020, 1, 1)</c>, <c>-1</c>); reading a variable, a field or a property,
    /// or calling a method, may give another value the next time.
    /// </summary>
    private sealed class Fixed : ExpressionVisitor
    {
        private bool _varies;

        public static bool Is(Expression expression)
        {
            if (expression is ConstantExpression constant)
                return constant.Value is null or string or ValueType;
            if (expression is MemberExpression or MethodCallExpression)
                return false;
            var visitor = new Fixed();
            visitor.Visit(expression);
            return !visitor._varies;
        }

        public override Expression? Visit(Expression? node)
        {
            if (_varies || node is null)
                return node;
            if (node.NodeType is ExpressionType.Constant or ExpressionType.New or ExpressionType.NewArrayInit or ExpressionType.NewArrayBounds
                or ExpressionType.Convert or ExpressionType.ConvertChecked or ExpressionType.Negate or ExpressionType.Quote
                || node is BinaryExpression)
                return base.Visit(node);
            _varies = true;
            return node;
        }

        protected override Expression VisitConstant(ConstantExpression node)
        {
            _varies |= node.Value is not (null or string or ValueType);
            return node;
        }
    }

    private static object? Snapshot(object? value) => value is IEnumerable sequence and not string ? sequence.Cast<object?>().ToArray() : value;
}
