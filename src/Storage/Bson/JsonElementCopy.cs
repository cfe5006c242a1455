using System.Globalization;
using System.Numerics;
using System.Text.Json;
using Newtonsoft.Json.Linq;

namespace RavenLite.Storage.Bson;

/// <summary>
/// Builds a new, changeable <see cref="JObject"/> from a document's shared, parsed (read-only) form,
/// instead of parsing its JSON text again. Values come out as Newtonsoft's own parser would give them
/// (with dates left as strings): integers as <see cref="long"/> or <see cref="BigInteger"/>, other numbers
/// as <see cref="double"/> (as <see cref="decimal"/> when a double would not hold them exactly), and a repeated
/// property name keeps its last value.
/// </summary>
internal static class JsonElementCopy
{
    public static JObject ToJObject(JsonElement element)
    {
        var copy = new JObject();
        foreach (var property in element.EnumerateObject())
            copy[property.Name] = ToJToken(property.Value);
        return copy;
    }

    private static JToken ToJToken(JsonElement element) => element.ValueKind switch
    {
        JsonValueKind.Object => ToJObject(element),
        JsonValueKind.Array => ToJArray(element),
        JsonValueKind.String => new JValue(element.GetString()),
        JsonValueKind.Number => Number(element),
        JsonValueKind.True => new JValue(true),
        JsonValueKind.False => new JValue(false),
        _ => JValue.CreateNull(),
    };

    private static JArray ToJArray(JsonElement element)
    {
        var copy = new JArray();
        foreach (var item in element.EnumerateArray())
            copy.Add(ToJToken(item));
        return copy;
    }

    private static JValue Number(JsonElement element)
    {
        if (element.TryGetInt64(out var integer))
            return integer == 0 && System.Runtime.InteropServices.JsonMarshal.GetRawUtf8Value(element)[0] == (byte)'-' ? new JValue(-0.0) : new JValue(integer);
        var text = element.GetRawText();
        if (text.AsSpan().IndexOfAny('.', 'e', 'E') < 0)
            return new JValue(BigInteger.Parse(text, CultureInfo.InvariantCulture));
        var number = double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
        // A number stored as decimal128 (more digits than a double holds) stays exact as a decimal.
        if (BsonNumbers.Classify(System.Runtime.InteropServices.JsonMarshal.GetRawUtf8Value(element), number, out _) == NumberForm.Decimal128)
            return new JValue(decimal.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture));
        return new JValue(number);
    }
}
