namespace RavenLite.Client.Backend;

/// <summary>
/// What a query answer holds besides its page of whole documents: the documents the results refer to at
/// <paramref name="IncludePaths"/>, and, with <paramref name="FetchPaths"/>, only those fields of each result (paths as in
/// index definitions: <c>CustomerId</c>, <c>Customer.Name</c>, <c>Lines[].ProductId</c>).
/// </summary>
/// <param name="IncludePaths">Paths holding ids; the documents they name come back in <see cref="QueryPage.Includes"/>.</param>
/// <param name="FetchPaths">Fields to return instead of whole documents, in <see cref="QueryPage.Projections"/>.</param>
public sealed record QueryShape(IReadOnlyList<string> IncludePaths, IReadOnlyList<string> FetchPaths)
{
    /// <summary>Whole documents, nothing included.</summary>
    public static QueryShape None { get; } = new([], []);

    /// <summary>Whether the answer is the plain page of whole documents.</summary>
    public bool IsEmpty => IncludePaths.Count == 0 && FetchPaths.Count == 0;
}
