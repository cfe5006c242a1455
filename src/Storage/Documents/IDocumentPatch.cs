using Newtonsoft.Json.Linq;

namespace RavenLite.Storage.Documents;

/// <summary>
/// A change to part of a document, applied by <see cref="PatchCommand"/> inside the write transaction to the
/// version current at that moment, so no concurrent write can slip between the read and the write.
/// </summary>
public interface IDocumentPatch
{
    /// <summary>
    /// Applies the patch to <paramref name="data"/> (a private copy of the current data, which it may change) and
    /// returns the new data. Throws <see cref="PatchException"/> (or <see cref="ArgumentException"/>) to refuse;
    /// then nothing of the write is stored. May be called more than once for one write (the engine may retry).
    /// </summary>
    JObject Apply(string key, JObject data);
}
