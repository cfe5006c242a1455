using Newtonsoft.Json.Linq;

namespace RavenLite.Database;

/// <summary>
/// The bounds a <see cref="DocumentPatch"/> is held to while it applies, checked after every operation rather than only
/// when the result is stored: each <c>copy</c> or <c>add</c> can double a document (23 copies of <c>/a</c> into
/// <c>/a/-</c> on <c>{"a":[1]}</c> took 3.9 GB), so the document's size is tracked as it grows and the patch is refused
/// with a <see cref="LimitExceededException"/> as soon as it would pass the storage limit, or when the patch as a whole
/// has copied, added or compared more than <see cref="MaxWorkBytes"/>.
/// </summary>
internal sealed class PatchBudget
{
    /// <summary>The most operations one patch may have.</summary>
    public const int MaxOperations = 1024;

    /// <summary>The largest document, in (estimated) BSON bytes: the storage's limit, 16 MiB.</summary>
    public const long MaxDocumentBytes = 16L * 1024 * 1024;

    /// <summary>The most bytes one patch may copy, add, compare or measure, all operations together.</summary>
    public const long MaxWorkBytes = 4 * MaxDocumentBytes;

    /// <summary>
    /// The most JSON values (members, elements, scalars) one patch may copy, add, compare or measure, all operations
    /// together: cloning a value costs by its count of values far more than by its bytes (a million take seconds).
    /// </summary>
    public const long MaxWorkValues = 1_000_000;

    private readonly string _key;
    private long _size;
    private long _work;
    private long _workValues;

    /// <summary>Starts the budget for <paramref name="data"/>, the document as it is before the patch.</summary>
    public PatchBudget(string key, JObject data)
    {
        _key = key;
        // The stored document is not charged: what it costs to read is the storage limit's business.
        _size = Measure(data, long.MaxValue).Bytes;
    }

    /// <summary>Charges the operation about to apply: what it will copy, add or compare.</summary>
    /// <exception cref="LimitExceededException">The patch has done too much work.</exception>
    public void Before(int index, PatchOperation operation, JObject data)
    {
        var cost = operation.Op switch
        {
            "copy" => Resolve(data, operation.From!) is { } source ? Measure(source, MaxDocumentBytes + 1) : default,
            "add" or "replace" or "test" => Measure(operation.Value!, long.MaxValue),
            _ => default,
        };
        Charge(index, operation, cost);
        if (operation.Op is "copy" or "add" or "replace")
            _size += cost.Bytes;
        else if (operation.Op == PatchOperation.Increment)
            _size += 16;
    }

    /// <summary>Checks the document after an operation applied: measured again only when the estimate passes the limit.</summary>
    /// <exception cref="LimitExceededException">The document is over the limit, or measuring it would do too much work.</exception>
    public void After(int index, PatchOperation operation, JObject data)
    {
        if (_size <= MaxDocumentBytes)
            return;
        // The estimate only grows (removals are not subtracted): measure what is really there before refusing.
        var measured = Measure(data, MaxDocumentBytes + 1);
        _size = measured.Bytes;
        Charge(index, operation, measured);
        if (_size > MaxDocumentBytes)
        {
            throw new LimitExceededException(nameof(MaxDocumentBytes),
                $"Patch of '{_key}': after operation {index} ({operation.Op} {operation.Path}) the document would be over the limit of " +
                $"{MaxDocumentBytes:N0} bytes (16 MiB). Nothing was written.");
        }
    }

    private void Charge(int index, PatchOperation operation, (long Bytes, long Values) cost)
    {
        _work += cost.Bytes;
        _workValues += cost.Values;
        if (_work > MaxWorkBytes || _workValues > MaxWorkValues)
        {
            var (limit, amount) = _work > MaxWorkBytes ? (nameof(MaxWorkBytes), $"{MaxWorkBytes:N0} bytes") : (nameof(MaxWorkValues), $"{MaxWorkValues:N0} JSON values");
            throw new LimitExceededException(limit,
                $"Patch of '{_key}': operation {index} ({operation.Op} {operation.Path}) brings what the patch copies, adds and compares " +
                $"past {amount}; split it. Nothing was written.");
        }
    }

    /// <summary>The token a JSON Pointer names, or null when there is none (the operation will fail on its own).</summary>
    public static JToken? Resolve(JToken root, string pointer)
    {
        var token = root;
        foreach (var raw in pointer.Split('/').Skip(1))
        {
            var name = raw.Replace("~1", "/", StringComparison.Ordinal).Replace("~0", "~", StringComparison.Ordinal);
            token = token switch
            {
                JObject obj => obj.TryGetValue(name, StringComparison.Ordinal, out var member) ? member : null,
                JArray array => int.TryParse(name, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var i)
                    && i < array.Count ? array[i] : null,
                _ => null,
            };
            if (token is null)
                return null;
        }
        return token;
    }

    /// <summary>
    /// The token's size in BSON bytes, near enough (a type byte and a name per member or element, 8 per number, the
    /// UTF-8 length of strings), and its count of values, walked without recursion; stops once past <paramref name="cap"/> bytes
    /// or <see cref="MaxWorkValues"/> values.
    /// </summary>
    public static (long Bytes, long Values) Measure(JToken token, long cap)
    {
        long size = 5;
        long values = 0;
        var pending = new Stack<JToken>();
        pending.Push(token);
        while (pending.Count > 0 && size <= cap && values <= MaxWorkValues)
        {
            var current = pending.Pop();
            values++;
            switch (current)
            {
                case JProperty property:
                    size += 2 + System.Text.Encoding.UTF8.GetByteCount(property.Name);
                    pending.Push(property.Value);
                    break;
                case JContainer container:
                    size += 5;
                    var index = 0;
                    foreach (var child in container.Children())
                    {
                        if (container is JArray)
                            size += 2 + (index++ < 10 ? 1 : 4); // the element's name is its index, as text
                        pending.Push(child);
                    }
                    break;
                case JValue { Type: JTokenType.String } text:
                    size += 5 + System.Text.Encoding.UTF8.GetByteCount((string)text!);
                    break;
                case JValue { Type: JTokenType.Integer or JTokenType.Float or JTokenType.Date } :
                    size += 8;
                    break;
                default:
                    size += 1;
                    break;
            }
        }
        return (size, values);
    }
}
