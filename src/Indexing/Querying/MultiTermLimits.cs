using Lucene.Net.Index;
using Lucene.Net.QueryParsers.Classic;
using Lucene.Net.Search;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Bounds on the queries that expand into many terms: regular expressions, wildcards, fuzzy and prefix terms, ranges.
/// Each is refused with a <see cref="LimitExceededException"/> naming the bound before it can cost more than a bounded
/// amount of memory and time: term lengths, the size of the automaton a regular expression or wildcard needs, the edit
/// distance and length of a fuzzy term, and the number of index terms one of them may match
/// (<see cref="BoundedTermsRewrite"/>). Called by <see cref="IndexQueryParser"/>'s <c>Get*Query</c> overrides.
/// </summary>
internal static class MultiTermLimits
{
    /// <summary>The longest prefix, wildcard, range bound or regular expression accepted, in characters.</summary>
    public const int MaxTermLength = 1_000;

    /// <summary>The longest fuzzy term accepted, in characters (Lucene's edit-distance automata grow with it).</summary>
    public const int MaxFuzzyTermLength = 100;

    /// <summary>The most states an automaton (of a regular expression or wildcard) may have, before or after determinizing.</summary>
    public const int MaxAutomatonStates = 10_000;

    /// <summary>The most steps determinizing one automaton may take (a bound on its time besides its size).</summary>
    public const long MaxAutomatonWork = 20_000_000;

    /// <summary>The deepest a regular expression's groups may nest.</summary>
    public const int MaxRegexNesting = 64;

    /// <summary>The most index terms (per index segment) one multi-term query may match.</summary>
    public const int MaxExpandedTerms = 100_000;

    /// <summary>The last Unicode code point: automata label their transitions with code points.</summary>
    public const int MaxCodePoint = 0x10FFFF;

    /// <exception cref="LimitExceededException"><paramref name="term"/> is longer than <paramref name="limit"/>.</exception>
    public static void CheckLength(string what, string? term, int limit = MaxTermLength)
    {
        if (term is not null && term.Length > limit)
        {
            throw new LimitExceededException(limit == MaxFuzzyTermLength ? nameof(MaxFuzzyTermLength) : nameof(MaxTermLength),
                $"{what} is {term.Length:N0} characters long; at most {limit:N0} are accepted");
        }
    }

    /// <summary>
    /// A wildcard query (<c>*</c> any run, <c>?</c> one character, <c>\</c> escapes) with a bounded automaton. A leading
    /// wildcard (<c>EndsWith</c>, <c>Contains</c>) walks the field's whole term dictionary: that walk is bounded like any
    /// other, by the matching terms per segment and the query's time limit.
    /// </summary>
    /// <exception cref="LimitExceededException">It is too long, or its automaton would be too large.</exception>
    public static Query Wildcard(string field, string pattern)
    {
        CheckLength("the wildcard term", pattern);
        var term = new Term(field, pattern);
        var automaton = BoundedDeterminizer.Determinize(WildcardQuery.ToAutomaton(term), "the wildcard term");
        return new AutomatonQuery(term, automaton) { MultiTermRewriteMethod = BoundedTermsRewrite.Instance };
    }

    /// <summary>A regular expression query (Lucene's syntax) with a bounded automaton.</summary>
    /// <exception cref="FormatException">Not a regular expression.</exception>
    /// <exception cref="LimitExceededException">It is too long, nests too deep, or its automaton would be too large.</exception>
    public static Query Regex(string field, string regex)
    {
        CheckLength("the regular expression", regex);
        var automaton = RegexAutomaton.Build(regex);
        return new AutomatonQuery(new Term(field, regex), automaton) { MultiTermRewriteMethod = BoundedTermsRewrite.Instance };
    }
}
