using System.Globalization;
using System.Numerics;
using Newtonsoft.Json.Linq;

namespace RavenLite.Database;

/// <summary>
/// The <c>increment</c> operation, which RFC 6902 lacks: without it a counter needs a read, a <c>test</c> and a retry.
/// Applied inside the write transaction, so concurrent increments never lose one another.
/// </summary>
internal static class Increments
{
    public static void Apply(string key, JObject data, PatchOperation operation)
    {
        var segments = operation.Path.Split('/')[1..].Select(Unescape).ToArray();
        JToken parent = data;
        foreach (var segment in segments[..^1])
            parent = Child(parent, segment) ?? throw Fail(key, operation, "the path does not exist");
        var last = segments[^1];
        var current = Child(parent, last);
        var delta = (JValue)operation.Value!;
        if (current is null)
        {
            if (parent is not JObject container)
                throw Fail(key, operation, "the path does not exist");
            container[last] = delta.DeepClone();
            return;
        }
        current.Replace(Add(key, operation, current, delta));
    }

    private static JValue Add(string key, PatchOperation operation, JToken current, JValue delta)
    {
        // Integers past 64 bits and decimals (numbers a double cannot hold, issue 28) add up exactly; the store
        // refuses a sum that it cannot keep exactly either.
        if (current is JValue { Value: BigInteger } or JValue { Value: decimal } || delta.Value is BigInteger or decimal)
        {
            if (current.Type == JTokenType.Integer && delta.Type == JTokenType.Integer)
                return new JValue(ToBigInteger(current) + ToBigInteger(delta));
            if (current.Type is JTokenType.Integer or JTokenType.Float)
            {
                try
                {
                    return new JValue(ToDecimal(current) + ToDecimal(delta));
                }
                catch (OverflowException)
                {
                    // beyond a decimal: added as doubles below
                }
            }
        }
        if (current.Type == JTokenType.Integer && delta.Type == JTokenType.Integer)
        {
            try
            {
                return new JValue(checked(current.Value<long>() + delta.Value<long>()));
            }
            catch (OverflowException)
            {
                throw Fail(key, operation, "the sum is outside the 64-bit integer range");
            }
        }
        if (current.Type is JTokenType.Integer or JTokenType.Float)
        {
            var sum = ToDouble(current) + ToDouble(delta);
            return double.IsFinite(sum) ? new JValue(sum) : throw Fail(key, operation, "the sum is too large for a JSON number");
        }
        throw Fail(key, operation, $"the value there is {current.Type}, not a number");
    }

    private static BigInteger ToBigInteger(JToken value) =>
        ((JValue)value).Value is BigInteger big ? big : new BigInteger(value.Value<long>());

    private static decimal ToDecimal(JToken value) => ((JValue)value).Value switch
    {
        BigInteger big => (decimal)big,
        double number => decimal.Parse(number.ToString("R", CultureInfo.InvariantCulture), NumberStyles.Float, CultureInfo.InvariantCulture),
        var other => Convert.ToDecimal(other, CultureInfo.InvariantCulture),
    };

    private static double ToDouble(JToken value) =>
        ((JValue)value).Value is BigInteger big ? (double)big : value.Value<double>();

    private static JToken? Child(JToken parent, string segment) => parent switch
    {
        JObject obj => obj.TryGetValue(segment, StringComparison.Ordinal, out var value) ? value : null,
        JArray array when int.TryParse(segment, NumberStyles.None, CultureInfo.InvariantCulture, out var i) && i < array.Count => array[i],
        _ => null,
    };

    private static string Unescape(string segment) => segment.Replace("~1", "/", StringComparison.Ordinal).Replace("~0", "~", StringComparison.Ordinal);

    private static PatchException Fail(string key, PatchOperation operation, string why) =>
        new($"Patch of '{key}' failed: cannot increment '{operation.Path}': {why}. Nothing was written.", testFailed: false);
}
