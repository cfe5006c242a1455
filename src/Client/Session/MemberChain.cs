using System.Collections;
using System.Globalization;
using System.Linq.Expressions;
using System.Reflection;
using RavenLite.Client.Serialization;

namespace RavenLite.Client.Session;

/// <summary>One step of a member chain: a member under its JSON name (and whether it holds a collection), or a constant index.</summary>
internal readonly record struct ChainStep(string Name, bool IsIndex, bool IsCollection);

/// <summary>
/// The steps of an entity member chain (<c>x =&gt; x.Customer.Name</c>, <c>x =&gt; x.Lines[0].Price</c>), from the entity
/// outwards, under the store's JSON names: what patch paths and include paths are written from.
/// </summary>
internal static class MemberChain
{
    /// <exception cref="ArgumentException">Not a chain of members and constant indexes of the lambda's parameter.</exception>
    public static List<ChainStep> Steps(LambdaExpression lambda, EntitySerializer serializer, string what)
    {
        ArgumentNullException.ThrowIfNull(lambda);
        var steps = new List<ChainStep>();
        var current = Unwrap(lambda.Body);
        while (current != lambda.Parameters[0])
        {
            switch (current)
            {
                // Only a member of something written as a JSON object is in the document: DateOnly.Year, string.Length,
                // List.Count and Nullable.Value are computed by .NET.
                case MemberExpression { Expression: { } owner } member
                    when Nullable.GetUnderlyingType(Unwrap(owner).Type) is null && serializer.WritesAsObject(Unwrap(owner).Type):
                    var type = member.Member is PropertyInfo property ? property.PropertyType : ((FieldInfo)member.Member).FieldType;
                    steps.Add(new ChainStep(serializer.JsonName(owner.Type, member.Member), false,
                        type != typeof(string) && typeof(IEnumerable).IsAssignableFrom(type)));
                    current = Unwrap(owner);
                    break;
                case BinaryExpression { NodeType: ExpressionType.ArrayIndex } index:
                    steps.Add(new ChainStep(Index(index.Right, lambda, what), true, false));
                    current = Unwrap(index.Left);
                    break;
                case MethodCallExpression { Method.Name: "get_Item", Object: { } list, Arguments: [var argument] }:
                    steps.Add(new ChainStep(Index(argument, lambda, what), true, false));
                    current = Unwrap(list);
                    break;
                default:
                    throw Unsupported(lambda, what);
            }
        }
        if (steps.Count == 0)
            throw Unsupported(lambda, what);
        steps.Reverse();
        return steps;
    }

    private static string Index(Expression index, LambdaExpression lambda, string what) =>
        Expression.Lambda(index).Compile().DynamicInvoke() is var value && value is int or long or string
            ? Convert.ToString(value, CultureInfo.InvariantCulture)!
            : throw Unsupported(lambda, what);

    private static Expression Unwrap(Expression expression) =>
        expression is UnaryExpression { NodeType: ExpressionType.Convert or ExpressionType.ConvertChecked } convert ? convert.Operand : expression;

    public static ArgumentException Unsupported(LambdaExpression lambda, string what) =>
        new($"{what} must be a chain of members (and constant indexes) of the entity, such as x => x.Lines[0].Price; got {lambda}.", what == "An include" ? "include" : "path");
}
