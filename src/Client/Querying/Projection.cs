using System.Buffers;
using System.Linq.Expressions;
using System.Reflection;
using System.Text.Json;
using RavenLite.Client.Backend;
using RavenLite.Client.Serialization;
using RavenLite.Client.Session;

namespace RavenLite.Client.Querying;

/// <summary>
/// A <c>Select</c> over entities (<c>x =&gt; new { x.Customer, x.Total }</c>, <c>x =&gt; new Summary { Name = x.Customer.Name }</c>)
/// as the field paths the server fetches (<c>Customer</c>, <c>Customer.Name</c>) and which member of the result each
/// one fills. A result is read from the server's projected object (a member per path) renamed to the result's JSON
/// names and deserialized once.
/// </summary>
internal sealed class Projection
{
    private readonly (string JsonName, string Path)[] _members;

    private Projection((string JsonName, string Path)[] members)
    {
        _members = members;
        FetchPaths = [.. members.Select(member => member.Path).Distinct(StringComparer.Ordinal)];
    }

    /// <summary>The paths to fetch, each once.</summary>
    public IReadOnlyList<string> FetchPaths { get; }

    /// <exception cref="ArgumentException">Not a new object whose every member is a chain of members of the entity.</exception>
    public static Projection From(LambdaExpression lambda, EntitySerializer serializer)
    {
        ArgumentNullException.ThrowIfNull(lambda);
        var targets = new List<(MemberInfo Member, Expression Value)>();
        switch (lambda.Body)
        {
            case NewExpression created:
                AddArguments(created, targets, lambda);
                break;
            case MemberInitExpression init:
                AddArguments(init.NewExpression, targets, lambda);
                foreach (var binding in init.Bindings)
                {
                    if (binding is not MemberAssignment assignment)
                        throw Unsupported(lambda, $"'{binding.Member.Name}' is not set by a plain assignment");
                    targets.Add((assignment.Member, assignment.Expression));
                }
                break;
            default:
                throw Unsupported(lambda, "it does not create a new object");
        }
        if (targets.Count == 0)
            throw Unsupported(lambda, "it sets no member");
        var members = new (string, string)[targets.Count];
        for (var i = 0; i < members.Length; i++)
        {
            var (member, value) = targets[i];
            List<ChainStep> steps;
            try
            {
                steps = MemberChain.Steps(Expression.Lambda(value, lambda.Parameters), serializer, "A projected member");
            }
            catch (ArgumentException)
            {
                throw Unsupported(lambda, $"'{member.Name}' is not a chain of members of the entity");
            }
            if (steps.Any(step => step.IsIndex))
                throw Unsupported(lambda, $"'{member.Name}' uses an index; a projection fetches whole members");
            // The server copies the stored JSON: a left-out default would come back null, a converter's form as that form.
            if (value is MemberExpression { Expression: { } owner } read
                && (serializer.OmittedDefault(owner.Type, read.Member, read.Type) is not null
                    || (serializer.ConverterOf(owner.Type, read.Member, read.Type, items: false) is not null
                        && !(Nullable.GetUnderlyingType(read.Type) ?? read.Type).IsEnum)))
                throw Unsupported(lambda, $"'{member.Name}' is not stored as its value (a left-out default or a converter's form)");
            members[i] = (serializer.JsonName(lambda.ReturnType, member), string.Join('.', steps.Select(step => step.Name)));
        }
        return new Projection(members);
    }

    /// <summary>Reads one result: the server's object (a member per fetched path) as <paramref name="type"/>.</summary>
    public object Read(ReadOnlyMemory<byte> fields, Type type, EntitySerializer serializer)
    {
        using var parsed = JsonDocument.Parse(fields);
        var renamed = new ArrayBufferWriter<byte>(fields.Length + 16 * _members.Length);
        using (var json = new Utf8JsonWriter(renamed, RemoteDocuments.WriterOptions))
        {
            json.WriteStartObject();
            foreach (var (name, path) in _members)
            {
                json.WritePropertyName(name);
                if (parsed.RootElement.TryGetProperty(path, out var value))
                    value.WriteTo(json);
                else
                    json.WriteNullValue();
            }
            json.WriteEndObject();
        }
        return serializer.Deserialize(renamed.WrittenMemory, type, "a projected result");
    }

    private static void AddArguments(NewExpression created, List<(MemberInfo, Expression)> targets, LambdaExpression lambda)
    {
        if (created.Arguments.Count == 0)
            return;
        // Anonymous types (and records built by their constructor) say which member each argument sets.
        if (created.Members is not { } members)
            throw Unsupported(lambda, "its constructor arguments are not tied to members (use an anonymous type or member initializers)");
        for (var i = 0; i < members.Count; i++)
            targets.Add((members[i], created.Arguments[i]));
    }

    private static ArgumentException Unsupported(LambdaExpression projection, string why) =>
        new($"A projection must create an object whose members are members of the entity, such as x => new {{ x.Customer, x.Total }}; {why}: {projection}.", nameof(projection));
}
