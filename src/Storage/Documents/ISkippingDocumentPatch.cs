using Newtonsoft.Json.Linq;

namespace RavenLite.Storage.Documents;

/// <summary>
/// A patch that may decline a document without failing its batch: a set operation (patch by query) reports a document
/// its patch refuses and goes on with the others in the same transaction.
/// </summary>
internal interface ISkippingDocumentPatch : IDocumentPatch
{
    /// <summary>
    /// As <see cref="IDocumentPatch.Apply"/>, or null to leave the document as it is: nothing is written for it and its
    /// batch result has a null etag. May be called more than once for one write (the engine may retry).
    /// </summary>
    JObject? ApplyOrSkip(string key, JObject data);
}
