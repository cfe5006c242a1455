using Lucene.Net.Analysis;
using Lucene.Net.Analysis.Core;
using Lucene.Net.Analysis.Standard;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// The analysis of FullText fields, at indexing and at query time: exactly <see cref="StandardAnalyzer"/>'s chain
/// (UAX#29 words up to 255 characters, lower-cased, English stop words removed with their positions kept), plus a
/// position gap of 100 between the values of a multi-valued field, so a phrase never matches across two array items.
/// </summary>
internal sealed class FullTextAnalyzer : Analyzer
{
    public const int ValueGap = 100;

    public static FullTextAnalyzer Instance { get; } = new();

    private FullTextAnalyzer()
    {
    }

    protected override TokenStreamComponents CreateComponents(string fieldName, TextReader reader)
    {
        var source = new StandardTokenizer(LuceneSettings.Version, reader) { MaxTokenLength = StandardAnalyzer.DEFAULT_MAX_TOKEN_LENGTH };
        TokenStream sink = new StandardFilter(LuceneSettings.Version, source);
        sink = new LowerCaseFilter(LuceneSettings.Version, sink);
        sink = new StopFilter(LuceneSettings.Version, sink, StandardAnalyzer.STOP_WORDS_SET);
        return new TokenStreamComponents(source, sink);
    }

    public override int GetPositionIncrementGap(string fieldName) => ValueGap;
}
