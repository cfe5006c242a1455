using System.Linq.Expressions;
using RavenLite.Client.Serialization;

namespace RavenLite.Client.Session;

/// <summary>
/// An include given as a member chain (<c>x =&gt; x.Customer.Id</c>, <c>x =&gt; x.ProductIds</c>) as the server's field
/// path (<c>Customer.Id</c>, <c>ProductIds[]</c>): a collection member takes every item; indexes are not field paths.
/// </summary>
internal static class IncludePath
{
    public static string ToPath(LambdaExpression include, EntitySerializer serializer)
    {
        var steps = MemberChain.Steps(include, serializer, "An include");
        if (steps.Any(step => step.IsIndex))
            throw MemberChain.Unsupported(include, "An include");
        return string.Join('.', steps.Select(step => step.IsCollection ? step.Name + "[]" : step.Name));
    }
}
