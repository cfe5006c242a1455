namespace RavenLite;

/// <summary>
/// The one rule for text RavenLite can hold: every UTF-16 surrogate in a pair, so the text has a UTF-8 form. Keys,
/// documents, query texts and LINQ arguments are checked by it; a half character is refused, never replaced.
/// </summary>
internal static class Utf16Text
{
    /// <summary>Whether <paramref name="text"/> is valid UTF-16 (every surrogate in a pair), i.e. encodable as UTF-8.</summary>
    public static bool IsUnicode(ReadOnlySpan<char> text) => IndexOfUnpairedSurrogate(text) < 0;

    /// <summary>Where <paramref name="text"/> has a surrogate without its other half, which UTF-8 cannot encode; -1 when it has none.</summary>
    public static int IndexOfUnpairedSurrogate(ReadOnlySpan<char> text)
    {
        var at = text.IndexOfAnyInRange('\uD800', '\uDFFF');
        if (at < 0)
            return -1;
        for (var i = at; i < text.Length; i++)
        {
            if (!char.IsSurrogate(text[i]))
                continue;
            if (!char.IsHighSurrogate(text[i]) || i + 1 == text.Length || !char.IsLowSurrogate(text[i + 1]))
                return i;
            i++;
        }
        return -1;
    }
}
