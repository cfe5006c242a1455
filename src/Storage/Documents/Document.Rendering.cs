using RavenLite.Storage.Caching;

namespace RavenLite.Storage.Documents;

/// <summary>Writes a document version in the form its reader sends out (the server: JSON with its <c>@metadata</c>).</summary>
public interface IDocumentRenderer
{
    /// <summary>The bytes of <paramref name="document"/>'s rendering; they must depend on nothing but the version itself.</summary>
    byte[] Render(Document document);
}

public sealed partial class Document
{
    private Rendering? _rendering;

    /// <summary>
    /// This version as <paramref name="renderer"/> writes it, made on first use and kept with the document (and charged
    /// to the cache holding it), so every later read of the cached version copies the bytes instead of writing them
    /// again. One renderer's form is kept; another renderer's is made every time.
    /// </summary>
    public ReadOnlyMemory<byte> RenderWith(IDocumentRenderer renderer)
    {
        ArgumentNullException.ThrowIfNull(renderer);
        if (Volatile.Read(ref _rendering) is { } kept)
        {
            if (ReferenceEquals(kept.Renderer, renderer))
                return kept.Bytes;
            return renderer.Render(this);
        }
        var mine = new Rendering(renderer, renderer.Render(this));
        var winner = Interlocked.CompareExchange(ref _rendering, mine, null);
        if (winner is not null)
            return ReferenceEquals(winner.Renderer, renderer) ? winner.Bytes : mine.Bytes;
        OnParsedFormAdded();
        return mine.Bytes;
    }

    private long RenderingSize => Volatile.Read(ref _rendering) is { } rendering ? RenderingInstanceBytes + ManagedSize.ByteArray(rendering.Bytes.Length) : 0;

    // Header 16 + two references 16.
    private const int RenderingInstanceBytes = 32;

    private sealed record Rendering(IDocumentRenderer Renderer, byte[] Bytes);
}
