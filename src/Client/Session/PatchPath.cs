using System.Globalization;
using System.Linq.Expressions;
using RavenLite.Client.Serialization;

namespace RavenLite.Client.Session;

/// <summary>
/// A member path of an entity (<c>x =&gt; x.Customer.Name</c>, <c>x =&gt; x.Lines[0].Price</c>) as the JSON Pointer of the
/// stored document (<c>/Customer/Name</c>), under the store's JSON names.
/// </summary>
internal static class PatchPath
{
    public static string ToPointer(LambdaExpression path, EntitySerializer serializer)
    {
        ArgumentNullException.ThrowIfNull(path);
        var segments = new Stack<string>();
        var current = StripConvert(path.Body);
        while (current != path.Parameters[0])
        {
            switch (current)
            {
                case MemberExpression { Expression: { } owner } member:
                    segments.Push(Escape(serializer.JsonName(owner.Type, member.Member)));
                    current = StripConvert(owner);
                    break;
                case BinaryExpression { NodeType: ExpressionType.ArrayIndex } index:
                    segments.Push(Index(index.Right, path));
                    current = StripConvert(index.Left);
                    break;
                case MethodCallExpression { Method.Name: "get_Item", Object: { } list, Arguments: [var argument] }:
                    segments.Push(Index(argument, path));
                    current = StripConvert(list);
                    break;
                default:
                    throw Unsupported(path);
            }
        }
        if (segments.Count == 0)
            throw Unsupported(path);
        return "/" + string.Join('/', segments);
    }

    private static string Index(Expression index, LambdaExpression path) =>
        Expression.Lambda(index).Compile().DynamicInvoke() is var value && value is int or long or string
            ? Escape(Convert.ToString(value, CultureInfo.InvariantCulture)!)
            : throw Unsupported(path);

    private static Expression StripConvert(Expression expression) =>
        expression is UnaryExpression { NodeType: ExpressionType.Convert or ExpressionType.ConvertChecked } convert ? convert.Operand : expression;

    private static string Escape(string name) => name.Replace("~", "~0", StringComparison.Ordinal).Replace("/", "~1", StringComparison.Ordinal);

    private static ArgumentException Unsupported(LambdaExpression path) =>
        new($"A patch path must be a chain of members (and constant indexes) of the entity, such as x => x.Lines[0].Price; got {path}.", nameof(path));
}
