using System.Text.Json;

namespace RavenLite.Client.Serialization;

/// <summary>
/// Change tracking: whether an entity serialized now says the same as the JSON it was loaded from. Usually the bytes
/// are equal; when not (a document written by another client: other number spellings, member order, no id member),
/// the two are compared as JSON, ignoring the identity member, which the key already gives.
/// </summary>
internal static class DocumentComparer
{
    public static bool Same(ReadOnlySpan<byte> loaded, ReadOnlySpan<byte> current, string identityName)
    {
        if (loaded.SequenceEqual(current))
            return true;
        using var before = JsonDocument.Parse(loaded.ToArray());
        using var after = JsonDocument.Parse(current.ToArray());
        return SameMembers(before.RootElement, after.RootElement, identityName)
            && SameMembers(after.RootElement, before.RootElement, identityName);
    }

    /// <summary>Every member of <paramref name="a"/> but the identity is in <paramref name="b"/> with an equal value.</summary>
    private static bool SameMembers(JsonElement a, JsonElement b, string identityName)
    {
        foreach (var property in a.EnumerateObject())
        {
            if (property.Name.Equals(identityName, StringComparison.OrdinalIgnoreCase))
                continue;
            if (!b.TryGetProperty(property.Name, out var other) || !JsonElement.DeepEquals(property.Value, other))
                return false;
        }
        return true;
    }
}
