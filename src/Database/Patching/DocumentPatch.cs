using Microsoft.AspNetCore.JsonPatch;
using Microsoft.AspNetCore.JsonPatch.Exceptions;
using Microsoft.AspNetCore.JsonPatch.Operations;
using Newtonsoft.Json.Linq;
using Newtonsoft.Json.Serialization;
using RavenLite.Storage.Documents;

namespace RavenLite.Database;

/// <summary>
/// A JSON Patch document (RFC 6902: <c>add</c>, <c>remove</c>, <c>replace</c>, <c>move</c>, <c>copy</c>, <c>test</c>)
/// plus one RavenLite operation, <c>increment</c> (<c>{"op":"increment","path":"/Count","value":1}</c>: adds the number
/// to the one at the path, or sets it when the member is missing). Checked when parsed; applied by
/// <see cref="DocumentDatabase.Patch"/> or a <see cref="BatchCommand.Patch"/> inside the write transaction, all
/// operations or none. The RFC operations are applied by Microsoft.AspNetCore.JsonPatch.
/// </summary>
/// <example>
/// <code>
/// db.Patch("orders/1", DocumentPatch.Parse("""[{"op":"test","path":"/Status","value":"open"},{"op":"replace","path":"/Status","value":"paid"}]"""));
/// </code>
/// </example>
public sealed partial class DocumentPatch : IDocumentPatch
{
    private static readonly DefaultContractResolver s_resolver = new();
    private readonly IReadOnlyList<object> _steps;

    private DocumentPatch(IReadOnlyList<PatchOperation> operations)
    {
        Operations = operations;
        _steps = Group(operations);
    }

    /// <summary>The operations, in the order they are applied.</summary>
    public IReadOnlyList<PatchOperation> Operations { get; }

    /// <summary>
    /// A patch from operations built in code.
    /// </summary>
    /// <exception cref="ArgumentException">No operations, or one that is not well formed (see <see cref="PatchOperation"/>).</exception>
    public static DocumentPatch FromOperations(IEnumerable<PatchOperation> operations)
    {
        ArgumentNullException.ThrowIfNull(operations);
        var list = operations.ToList();
        if (list.Count == 0)
            throw new ArgumentException("A patch needs at least one operation.", nameof(operations));
        for (var i = 0; i < list.Count; i++)
            list[i].Validate(i);
        return new DocumentPatch(list);
    }

    /// <inheritdoc />
    /// <exception cref="PatchException">A <c>test</c> failed, or a path or value does not fit the document.</exception>
    public JObject Apply(string key, JObject data)
    {
        ArgumentNullException.ThrowIfNull(data);
        foreach (var step in _steps)
        {
            if (step is PatchOperation increment)
            {
                Increments.Apply(key, data, increment);
                continue;
            }
            try
            {
                ((JsonPatchDocument)step).ApplyTo(data);
            }
            catch (JsonPatchException ex)
            {
                var test = ex.FailedOperation?.OperationType == OperationType.Test;
                throw new PatchException($"Patch of '{key}' failed: {ex.Message} Nothing was written.", test, ex);
            }
            catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or Newtonsoft.Json.JsonException)
            {
                // The library reports most failures as JsonPatchException; a value or path it cannot handle otherwise is
                // still the patch's fault, not the server's.
                throw new PatchException($"Patch of '{key}' failed: {ex.Message} Nothing was written.", testFailed: false, ex);
            }
        }
        return data;
    }

    /// <summary>Runs of RFC 6902 operations become one library document each; increments stand alone between them.</summary>
    private static List<object> Group(IReadOnlyList<PatchOperation> operations)
    {
        var steps = new List<object>();
        List<Operation>? run = null;
        foreach (var operation in operations)
        {
            if (operation.Op == PatchOperation.Increment)
            {
                run = null;
                steps.Add(operation);
                continue;
            }
            if (run is null)
            {
                run = [];
                steps.Add(new JsonPatchDocument(run, s_resolver));
            }
            run.Add(new Operation(operation.Op, operation.Path, operation.From, operation.Value?.DeepClone()));
        }
        return steps;
    }
}
