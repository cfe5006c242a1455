using Lucene.Net.Util;

namespace RavenLite.Indexing;

/// <summary>The Lucene version every index, analyzer and parser is built for.</summary>
internal static class LuceneSettings
{
    public const LuceneVersion Version = LuceneVersion.LUCENE_48;
}
