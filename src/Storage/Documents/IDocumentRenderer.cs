namespace RavenLite.Storage.Documents;

/// <summary>Writes a document version in the form its reader sends out (the server: JSON with its <c>@metadata</c>).</summary>
public interface IDocumentRenderer
{
    /// <summary>The bytes of <paramref name="document"/>'s rendering; they must depend on nothing but the version itself.</summary>
    byte[] Render(Document document);
}
