namespace RavenLite.Indexing.Querying;

/// <summary>A parsed query, before it is bound to an index's fields. Positions are where each part starts in the text.</summary>
internal abstract record QuerySyntax(int Position);

/// <summary>A field name and where it was written (for a bare term inside <c>field:( )</c>, where the field was).</summary>
internal readonly record struct FieldName(string Name, int Position);

/// <summary><c>field:term</c>, or <c>field:prefix*</c> (<see cref="IsPrefix"/>); <c>field:*</c> is a prefix of "".</summary>
internal sealed record TermSyntax(FieldName Field, string Text, bool IsPrefix, int Position) : QuerySyntax(Position);

/// <summary><c>field:"quoted words"</c>.</summary>
internal sealed record PhraseSyntax(FieldName Field, string Text, int Position) : QuerySyntax(Position);

/// <summary><c>field:[lower TO upper]</c> with <c>{ }</c> for exclusive ends; null ends (<c>*</c>) are open.</summary>
internal sealed record RangeSyntax(FieldName Field, string? Lower, string? Upper, bool IncludeLower, bool IncludeUpper, int Position)
    : QuerySyntax(Position);

/// <summary><c>*:*</c>.</summary>
internal sealed record MatchAllSyntax(int Position) : QuerySyntax(Position);

/// <summary>Clauses that must, should or must not match.</summary>
internal sealed record BooleanSyntax(IReadOnlyList<BooleanClause> Clauses, int Position) : QuerySyntax(Position);

internal readonly record struct BooleanClause(Occur Occur, QuerySyntax Query);

/// <summary>How a clause counts, as in Lucene: required (+, AND), optional (OR, the default) or prohibited (-, NOT).</summary>
internal enum Occur
{
    Should,
    Must,
    MustNot,
}
