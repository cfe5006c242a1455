namespace RavenLite.Indexing.Definitions;

/// <summary>Whether and how results can be sorted by a field; numeric kinds also make the field's terms numbers.</summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Naming", "CA1720:Identifier contains type name",
    Justification = "The names are the definition JSON's vocabulary (\"Sort\": \"Long\"), as in Lucene's and RavenDB's sort options.")]
public enum FieldSort
{
    /// <summary>Not sortable. Terms are strings.</summary>
    None = 0,

    /// <summary>Sortable by ordinal (UTF-8 byte, i.e. code point) order of the first value. Terms are strings.</summary>
    String = 1,

    /// <summary>
    /// A 64-bit integer field: terms are numbers, ranges compare numerically, sortable. Values that are not whole
    /// numbers are indexing errors.
    /// </summary>
    Long = 2,

    /// <summary>A double field: terms are numbers, ranges compare numerically, sortable.</summary>
    Double = 3,
}
