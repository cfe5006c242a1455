using Newtonsoft.Json.Linq;

namespace RavenLite.Database;

/// <summary>
/// One operation of a <see cref="DocumentPatch"/>: <see cref="Op"/> is an RFC 6902 operation (<c>add</c>,
/// <c>remove</c>, <c>replace</c>, <c>move</c>, <c>copy</c>, <c>test</c>) or <c>increment</c>; <see cref="Path"/> and
/// <see cref="From"/> are JSON Pointers (RFC 6901, <c>/Lines/0/Price</c>) to a member: the empty pointer (the whole
/// document) is refused, as a patch that replaces everything is a put.
/// </summary>
/// <param name="Op">The operation name, lower case as in RFC 6902.</param>
/// <param name="Path">Where it applies.</param>
/// <param name="From">Where <c>move</c> and <c>copy</c> take the value from; null for the others.</param>
/// <param name="Value">The value of <c>add</c>, <c>replace</c> and <c>test</c>, the number of <c>increment</c>.</param>
public sealed record PatchOperation(string Op, string Path, string? From, JToken? Value)
{
    /// <summary>The RavenLite operation that adds <see cref="Value"/> to the number at <see cref="Path"/>.</summary>
    public const string Increment = "increment";

    private static readonly string[] s_ops = ["add", "remove", "replace", "move", "copy", "test", Increment];

    /// <summary>An <c>add</c>.</summary>
    public static PatchOperation Add(string path, JToken? value) => new("add", path, null, value ?? JValue.CreateNull());

    /// <summary>A <c>replace</c>.</summary>
    public static PatchOperation Replace(string path, JToken? value) => new("replace", path, null, value ?? JValue.CreateNull());

    /// <summary>A <c>remove</c>.</summary>
    public static PatchOperation Remove(string path) => new("remove", path, null, null);

    /// <summary>A <c>test</c>: the patch fails, writing nothing, unless the value at <paramref name="path"/> equals <paramref name="value"/>.</summary>
    public static PatchOperation Test(string path, JToken? value) => new("test", path, null, value ?? JValue.CreateNull());

    /// <summary>An <c>increment</c> by <paramref name="delta"/>.</summary>
    public static PatchOperation IncrementBy(string path, long delta) => new(Increment, path, null, new JValue(delta));

    internal void Validate(int index)
    {
        var where = $"Patch operation {index} ({Op})";
        if (Op is null || !s_ops.Contains(Op, StringComparer.Ordinal))
            throw new ArgumentException(
                $"Patch operation {index}: \"op\" must be one of {string.Join(", ", s_ops)}; got '{Op}'.");
        CheckPointer(Path, "path", where);
        if (Op is "move" or "copy")
            CheckPointer(From ?? throw new ArgumentException($"{where} needs \"from\"."), "from", where);
        if (Op is "add" or "replace" or "test" or Increment && Value is null)
            throw new ArgumentException($"{where} needs \"value\".");
        if (Op == Increment && Value!.Type is not (JTokenType.Integer or JTokenType.Float))
            throw new ArgumentException($"{where}: \"value\" must be a number, not {Value.Type}.");
    }

    internal JObject ToJObject()
    {
        var json = new JObject { ["op"] = Op, ["path"] = Path };
        if (From is not null)
            json["from"] = From;
        if (Value is not null)
            json["value"] = Value.DeepClone();
        return json;
    }

    private static void CheckPointer(string pointer, string name, string where)
    {
        if (pointer is null || pointer.Length == 0 || pointer[0] != '/')
            throw new ArgumentException(
                $"{where}: \"{name}\" must be a JSON Pointer to a member such as /Total; got '{pointer}'. (A patch cannot replace the whole document: PUT it.)");
    }
}
