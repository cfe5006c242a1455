using Lucene.Net.Index;

namespace RavenLite.Indexing.Persistence;

/// <summary>
/// Runs the merges the merge policy picks on the indexer thread, one after another, when asked (<c>MaybeMerge</c>
/// before each commit, a forced merge) or when the writer closes, but never when a flush asks: a near-real-time
/// refresh flushes a segment, and a refresh is what a waiting query waits for, while a commit is not. No merge thread
/// can fail where nothing catches it. The segments flushed between two commits (one per refresh, a few per second at
/// most) wait for the next commit's merge.
/// </summary>
internal sealed class CommitMergeScheduler : MergeScheduler
{
    public override void Merge(IndexWriter writer, MergeTrigger trigger, bool newMergesFound)
    {
        if (trigger is MergeTrigger.SEGMENT_FLUSH or MergeTrigger.FULL_FLUSH)
            return; // registered, and run by the next explicit merge
        while (writer.GetNextMerge() is { } merge)
            writer.Merge(merge);
    }

    protected override void Dispose(bool disposing)
    {
    }
}
