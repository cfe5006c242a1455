using RavenLite.Client.Session;
using RavenLite.Client.Backend;

namespace RavenLite.Client;

public sealed partial class DocumentSession
{
    /// <summary>The built-in index over every document's entity name (<c>Tag</c>).</summary>
    public const string CollectionIndexName = "Raven/DocumentsByEntityName";

    /// <summary>
    /// A LINQ query over the documents of <typeparamref name="T"/>'s collection (the entity name from
    /// <see cref="StoreConventions.FindEntityName"/>): <c>Where(x =&gt; x.Customer == "Bob")</c>, <c>OrderBy</c>,
    /// <c>Count()</c>, <c>Sum(...)</c>, ... are answered by an auto index over the collection and the members the query
    /// reads, made by the database on first use (<c>dynamic/{collection}</c>); without conditions, by the built-in index.
    /// </summary>
    public RavenQuery<T> Query<T>() where T : class
    {
        ThrowIfDisposed();
        var entityName = _store.Conventions.FindEntityName(typeof(T));
        return new RavenQuery<T>(this, "dynamic/" + entityName, typed: true);
    }

    /// <summary>Translates C# conditions for auto indexes, with the store's JSON names and value forms.</summary>
    internal Querying.TypedTranslator Translator => _store.Translator;

    /// <summary>
    /// A LINQ query answered by the static index <typeparamref name="TIndex"/> (deployed with
    /// <see cref="RavenStore.ExecuteIndex"/>): the same conditions, orders and aggregates as a collection query, on the
    /// members the index holds.
    /// </summary>
    public RavenQuery<T> Query<T, TIndex>() where T : class where TIndex : RavenIndex<T>, new()
    {
        ThrowIfDisposed();
        return new RavenQuery<T>(this, new TIndex().IndexName, typed: true);
    }

    /// <summary>A query over the index named <paramref name="indexName"/>; every document it matches is read as a <typeparamref name="T"/>.</summary>
    public RavenQuery<T> Query<T>(string indexName) where T : class
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(indexName);
        ThrowIfDisposed();
        return new RavenQuery<T>(this, indexName, typed: false);
    }

    /// <summary>
    /// The documents of the index <paramref name="indexName"/> most like the document <paramref name="documentId"/> on
    /// the index's full-text fields, most similar first, without the document itself, tracked by the session (Lucene's
    /// MoreLikeThis; <paramref name="query"/>'s knobs, or with null the defaults: see <see cref="MoreLikeThisQuery"/>). Empty when
    /// there is no such document. One request.
    /// </summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    /// <exception cref="ArgumentException">A field that is not full-text, or a knob out of range.</exception>
    public List<T> MoreLikeThis<T>(string indexName, string documentId, MoreLikeThisQuery? query) where T : class
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(indexName);
        ArgumentException.ThrowIfNullOrWhiteSpace(documentId);
        ThrowIfDisposed();
        CountRequest();
        if (Backend.MoreLikeThis(indexName, documentId, query ?? new MoreLikeThisQuery()) is not { } page)
            return [];
        ReserveTracking(page.Results.Count);
        return [.. page.Results.Select(Track<T>)];
    }

    /// <summary>As <see cref="MoreLikeThis{T}(string, string, MoreLikeThisQuery?)"/> on the index <typeparamref name="TIndex"/>.</summary>
    public List<T> MoreLikeThis<T, TIndex>(string documentId, MoreLikeThisQuery? query) where T : class where TIndex : RavenIndex<T>, new() =>
        MoreLikeThis<T>(new TIndex().IndexName, documentId, query);

    internal QueryPage RunQuery(string indexName, IndexQuery query) => RunQuery(indexName, query, QueryShape.None);

    internal Task<QueryPage> RunQueryAsync(string indexName, IndexQuery query, CancellationToken cancellationToken) =>
        RunQueryAsync(indexName, query, QueryShape.None, cancellationToken);

    internal QueryPage RunQuery(string indexName, IndexQuery query, QueryShape shape)
    {
        ThrowIfDisposed();
        return shape.IsEmpty ? Backend.Query(indexName, query) : Backend.Query(indexName, query, shape);
    }

    internal Task<QueryPage> RunQueryAsync(string indexName, IndexQuery query, QueryShape shape, CancellationToken cancellationToken)
    {
        ThrowIfDisposed();
        return shape.IsEmpty ? Backend.QueryAsync(indexName, query, cancellationToken) : Backend.QueryAsync(indexName, query, shape, cancellationToken);
    }

    /// <summary>An include's member chain as the server's path (<c>x =&gt; x.CustomerId</c>: <c>CustomerId</c>).</summary>
    internal string IncludePathOf(System.Linq.Expressions.LambdaExpression include) => IncludePath.ToPath(include, _store.Serializer);

    /// <summary>The fields a projection reads, under the store's JSON names.</summary>
    internal Querying.Projection ProjectionOf(System.Linq.Expressions.LambdaExpression projection) =>
        Querying.Projection.From(projection, _store.Serializer);

    /// <summary>A projected result as <paramref name="type"/>: never tracked.</summary>
    internal object ReadProjected(Querying.Projection projection, ReadOnlyMemory<byte> fields, Type type) =>
        projection.Read(fields, type, _store.Serializer);

    /// <summary>The tracked instance for a document, else a new untracked one (streaming: read from the entity cache, never added to it).</summary>
    internal T Peek<T>(StoredDocument document) where T : class =>
        _byKey.TryGetValue(document.Key, out var known)
            ? known.Entity as T ?? throw new InvalidCastException($"The session tracks '{document.Key}' as a {known.Entity.GetType()}, which is not a {typeof(T)}.")
            : (T)_store.Entities.Materialize(document, typeof(T), admit: false, out _);
}
