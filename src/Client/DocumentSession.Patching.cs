using System.Linq.Expressions;
using System.Text;
using Newtonsoft.Json.Linq;
using RavenLite.Client.Backend;
using RavenLite.Client.Session;

namespace RavenLite.Client;

public sealed partial class DocumentSession
{
    private readonly List<(string Key, JObject Operation)> _patches = [];

    /// <summary>Patches and other operations beyond load, store and delete.</summary>
    public AdvancedSessionOperations Advanced => field ??= new AdvancedSessionOperations(this);

    internal string RequireIdFor(object entity)
    {
        ArgumentNullException.ThrowIfNull(entity);
        return GetIdFor(entity)
            ?? throw new InvalidOperationException($"The session does not track this {entity.GetType()}; load it first, or patch it by id.");
    }

    internal string PointerFor(LambdaExpression path) => PatchPath.ToPointer(path, _store.Serializer);

    internal JToken ToToken(object? value) => _store.Serializer.ToToken(value);

    internal void AddPatch(string id, JObject operation)
    {
        DocumentKey.Validate(id, nameof(id));
        ThrowIfDisposed();
        _patches.Add((id, operation));
    }

    /// <summary>One patch command per document, its operations in the order they were asked for.</summary>
    private IEnumerable<WriteCommand> PatchCommands() =>
        _patches.GroupBy(patch => patch.Key, StringComparer.OrdinalIgnoreCase).Select(group => WriteCommand.Patch(group.Key,
            Encoding.UTF8.GetBytes(new JArray(group.Select(patch => patch.Operation)).ToString(Newtonsoft.Json.Formatting.None)),
            expectedEtag: null));
}
