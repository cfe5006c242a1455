namespace RavenLite.Client.Caching;

/// <summary>An original entity as <see cref="Owner"/> materialized it as <see cref="Type"/>, kept on the document version it was read from.</summary>
internal sealed record MaterializedEntity(EntityMaterializer Owner, Type Type, object Original);
