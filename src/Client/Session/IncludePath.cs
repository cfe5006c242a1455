using System.Collections;
using System.Linq.Expressions;
using System.Reflection;
using RavenLite.Client.Serialization;

namespace RavenLite.Client.Session;

/// <summary>
/// An include given as a member chain (<c>x =&gt; x.Customer.Id</c>, <c>x =&gt; x.ProductIds</c>) as the server's field
/// path (<c>Customer.Id</c>, <c>ProductIds[]</c>), under the store's JSON names; a collection member takes every item.
/// </summary>
internal static class IncludePath
{
    public static string ToPath(LambdaExpression include, EntitySerializer serializer)
    {
        ArgumentNullException.ThrowIfNull(include);
        var parts = new Stack<string>();
        var current = Unwrap(include.Body);
        while (current is MemberExpression { Expression: { } owner } member)
        {
            var type = member.Member is PropertyInfo property ? property.PropertyType : ((FieldInfo)member.Member).FieldType;
            var collection = type != typeof(string) && typeof(IEnumerable).IsAssignableFrom(type);
            parts.Push(serializer.JsonName(owner.Type, member.Member) + (collection ? "[]" : ""));
            current = Unwrap(owner);
        }
        if (current != include.Parameters[0] || parts.Count == 0)
            throw new ArgumentException($"An include must be a chain of members of the entity, such as x => x.CustomerId; got {include}.", nameof(include));
        return string.Join('.', parts);
    }

    private static Expression Unwrap(Expression expression) =>
        expression is UnaryExpression { NodeType: ExpressionType.Convert or ExpressionType.ConvertChecked } convert ? convert.Operand : expression;
}
