namespace RavenLite;

/// <summary>
/// The suffixes that name the kinds of a typed index field in a query (<c>Total@dec:"3.5"</c>,
/// <c>Customer@ci:BOB</c>, <c>Tags@count:[2 TO *]</c>): each JSON value of a <c>Typed</c> field is indexed under the
/// field's name plus the suffix of every kind it can be read as. The index, its query parser and the typed client
/// read these, so a query written by hand and one translated from C# name the same fields (docs/indexing.md).
/// </summary>
public static class TypedFieldSuffixes
{
    /// <summary>Strings upper-cased (invariant), for ordinal case-insensitive matches.</summary>
    public const string IgnoreCase = "@ci";

    /// <summary>Every finite JSON number as a double: how C# compares double and float.</summary>
    public const string Number = "@num";

    /// <summary>Every JSON number a <see cref="decimal"/> holds exactly: exact equality and order for integers of any CLR type and decimals.</summary>
    public const string Exact = "@dec";

    /// <summary>Strings in ISO 8601 date-time form, as UTC instants: DateTime and DateTimeOffset compare as instants.</summary>
    public const string Instant = "@time";

    /// <summary>The number of items of an array value.</summary>
    public const string Count = "@count";

    /// <summary>Term <c>true</c> when the value is null or missing.</summary>
    public const string Null = "@null";

    /// <summary>Strings analyzed as full text (words, lower-cased), in fields searched for words.</summary>
    public const string Search = "@text";

    /// <summary>
    /// A sort only (not queryable): strings by the invariant culture's sort keys, the order of
    /// <see cref="string.CompareTo(string)"/> and of LINQ's <c>OrderBy</c> of strings under the invariant culture;
    /// sorting by the field itself orders them by code point.
    /// </summary>
    public const string Collated = "@col";
}
