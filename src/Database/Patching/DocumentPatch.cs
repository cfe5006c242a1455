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
    private readonly List<object> _steps;

    private DocumentPatch(IReadOnlyList<PatchOperation> operations)
    {
        Operations = operations;
        _steps = Steps(operations);
    }

    /// <summary>The operations, in the order they are applied.</summary>
    public IReadOnlyList<PatchOperation> Operations { get; }

    /// <summary>
    /// A patch from operations built in code.
    /// </summary>
    /// <exception cref="ArgumentException">No operations, or one that is not well formed (see <see cref="PatchOperation"/>).</exception>
    /// <exception cref="LimitExceededException">More than 1,024 operations.</exception>
    public static DocumentPatch FromOperations(IEnumerable<PatchOperation> operations)
    {
        ArgumentNullException.ThrowIfNull(operations);
        var list = operations.ToList();
        if (list.Count == 0)
            throw new ArgumentException("A patch needs at least one operation.", nameof(operations));
        if (list.Count > PatchBudget.MaxOperations)
        {
            throw new LimitExceededException(nameof(PatchBudget.MaxOperations),
                $"The patch has {list.Count:N0} operations; at most {PatchBudget.MaxOperations:N0} are accepted.");
        }
        for (var i = 0; i < list.Count; i++)
            list[i].Validate(i);
        return new DocumentPatch(list);
    }

    /// <inheritdoc />
    /// <exception cref="PatchException">A <c>test</c> failed, or a path or value does not fit the document.</exception>
    /// <exception cref="LimitExceededException">The document would grow past the storage limit, or the patch does too much work (<see cref="PatchBudget"/>).</exception>
    public JObject Apply(string key, JObject data)
    {
        ArgumentNullException.ThrowIfNull(data);
        var budget = new PatchBudget(key, data);
        for (var i = 0; i < _steps.Count; i++)
        {
            var operation = Operations[i];
            budget.Before(i, operation, data);
            if (_steps[i] is PatchOperation { Op: "copy" } copy)
                Copy(key, copy, data);
            else if (_steps[i] is PatchOperation increment)
                Increments.Apply(key, data, increment);
            else
                ApplyOne(key, (JsonPatchDocument)_steps[i], data);
            budget.After(i, operation, data);
        }
        return data;
    }

    private static void ApplyOne(string key, JsonPatchDocument step, JObject data)
    {
        try
        {
            step.ApplyTo(data);
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

    /// <summary>
    /// Each RFC 6902 operation becomes a library document of its own, so the document can be checked after every one;
    /// increments and copies stand alone.
    /// </summary>
    private static List<object> Steps(IReadOnlyList<PatchOperation> operations) =>
        [.. operations.Select(operation => operation.Op is PatchOperation.Increment or "copy"
            ? (object)operation
            : new JsonPatchDocument([new Operation(operation.Op, operation.Path, operation.From, operation.Value?.DeepClone())], s_resolver))];

    /// <summary><c>copy</c> as an <c>add</c> of a deep clone of the value at <c>from</c>, the value the budget measured.</summary>
    private static void Copy(string key, PatchOperation copy, JObject data)
    {
        var source = PatchBudget.Resolve(data, copy.From!)
            ?? throw new PatchException($"Patch of '{key}' failed: the 'from' location '{copy.From}' does not exist. Nothing was written.", testFailed: false);
        ApplyOne(key, new JsonPatchDocument([new Operation("add", copy.Path, null, source.DeepClone())], s_resolver), data);
    }
}
