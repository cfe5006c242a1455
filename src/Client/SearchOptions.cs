namespace RavenLite.Client;

/// <summary>How a <c>Search</c> matches its terms, and how it joins the conditions before it.</summary>
[Flags]
public enum SearchOptions
{
    /// <summary>A document with any of the terms matches (the default).</summary>
    AnyTerm = 0,

    /// <summary>Only a document with every term matches.</summary>
    AllTerms = 1,

    /// <summary>This search is an alternative to the condition before it (OR), instead of one more requirement (AND).</summary>
    OrElse = 2,
}
