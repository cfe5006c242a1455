using System.Linq.Expressions;
using RavenLite.Client.Serialization;

namespace RavenLite.Client.Session;

/// <summary>A member chain of an entity as the JSON Pointer of the stored document (<c>x =&gt; x.Lines[0].Price</c> is <c>/Lines/0/Price</c>).</summary>
internal static class PatchPath
{
    public static string ToPointer(LambdaExpression path, EntitySerializer serializer) =>
        "/" + string.Join('/', MemberChain.Steps(path, serializer, "A patch path").Select(step => Escape(step.Name)));

    private static string Escape(string name) => name.Replace("~", "~0", StringComparison.Ordinal).Replace("/", "~1", StringComparison.Ordinal);
}
