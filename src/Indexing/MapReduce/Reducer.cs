using System.Collections.Concurrent;
using System.Globalization;
using System.Runtime.CompilerServices;
using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Util;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.Persistence;
using RavenLite.Storage.Documents;
using LuceneDocument = Lucene.Net.Documents.Document;
using StoredDocument = RavenLite.Storage.Documents.Document;

namespace RavenLite.Indexing.MapReduce;

/// <summary>
/// Keeps a map/reduce index up to date in its own Lucene index, beside nothing else: the documents' map entries
/// (packs of up to <see cref="PackSize"/> source documents in one Lucene document, found by each of their keys and,
/// when a recompute may read them, by each group they feed) and each group's result (a
/// Lucene document with the result's fields, for queries, its JSON, and the <see cref="GroupState"/> it came from).
/// Both are written by the index's one writer and committed with the index's progress in one Lucene commit, so after a
/// crash the entries, the results and the etag they reach are of the same moment, and the batches after it are applied
/// again to exactly that state: nothing is lost or counted twice.
/// </summary>
/// <remarks>
/// A batch re-reduces only the groups its documents' old and new entries touch: the stored state less the old entries
/// plus the new ones (exact: sums are decimal), or, when the group's smallest or largest value leaves it, again from
/// the entries of every document in the group.
/// </remarks>
internal sealed class Reducer : IDisposable
{
    /// <summary>The field of map entries holding the source document's key term (stored).</summary>
    public const string SourceField = "@mr.src";

    /// <summary>The field of map entries naming each group the document feeds.</summary>
    public const string GroupField = "@mr.grp";

    // A map-entry document of the first layout: one source document's rows, its key stored in SourceField.
    private const string RowsField = "@mr.rows";

    // A map-entry document now: the keys and rows of up to PackSize source documents (PackEntries), found by each key.
    private const string PackField = "@mr.pack";

    /// <summary>
    /// At most this many source documents share one map-entry document: Lucene's cost is mostly per document, and a
    /// change to one of them rewrites the others of its pack, so a pack stays small.
    /// </summary>
    internal const int PackSize = 32;

    /// <summary>The field of results holding the group's identity (<see cref="MapRow.Group"/>), case-sensitive.</summary>
    public const string ResultField = "@mr.gid";

    private const string StateField = "@mr.state";

    private const string JsonField = "@mr.json";

    // Per segment core (released with it): the results already built from it, by doc id.
    private static readonly ConditionalWeakTable<object, ConcurrentDictionary<int, StoredDocument>> s_built = new();

    private const string KeysField = "@mr.keys";

    /// <summary>The field that tells results (<see cref="ResultKind"/>) from map entries.</summary>
    public const string KindField = "@mr.kind";

    public const string ResultKind = "result";

    private static readonly List<MapRow> s_noRows = [];

    private readonly IndexDefinition _definition;
    private readonly CompiledIndex _compiled;
    private readonly ReduceMapper _mapper;
    private readonly DocumentMapper _resultMapper;
    /// <summary>
    /// While the indexer is behind, a map/reduce index is refreshed every this many refresh intervals rather than every
    /// one: each refresh writes the result of every group reduced since the last (<see cref="WriteResults(LuceneIndex)"/>), and a bulk
    /// insert touches every group in every batch. A query that waits refreshes it at once; an indexer that has caught up
    /// (quiet) waits for this interval too, as a bulk insert is quiet between its transactions.
    /// </summary>
    internal const int RefreshIntervals = 8;

    /// <summary>At most this many groups' states are kept between batches (a few hundred bytes each).</summary>
    internal const int MaxKeptStates = 65_536;

    private readonly Dictionary<string, (GroupState State, string?[]? Keys)> _states = new(StringComparer.Ordinal);

    // The groups reduced whose results are not in the writer yet, with the etag of the last document that touched each.
    private readonly Dictionary<string, long> _unwritten = new(StringComparer.Ordinal);
    private readonly LuceneDocument _entry = [];
    private readonly List<StringField> _entrySources = [];
    private readonly StoredField _entryRows = new(PackField, Array.Empty<byte>());
    private readonly BytesRef _entryRowsBytes = new();
    private readonly MemoryStream _rowsBuffer = new();
    private readonly BinaryWriter _rowsWriter;

    // Only a recompute (a Min's or Max's value leaving a group) finds a group's documents (GroupField): an index whose
    // reduce has no Min or Max does not write them.
    private readonly bool _findsMembers;
    private readonly List<StringField> _entryGroups = [];
    private readonly StringField _resultGroup = new(ResultField, "", Field.Store.NO);
    private readonly StringField _resultKind = new(KindField, ResultKind, Field.Store.NO);
    private readonly StoredField _resultState = new(StateField, Array.Empty<byte>());
    private readonly StoredField _resultKeys = new(KeysField, Array.Empty<byte>());
    private readonly BinaryDocValuesField _resultJson = new(JsonField, new BytesRef());
    private readonly List<string> _problems = [];

    // A batch's bookkeeping, by source document key (before: its rows in the index; carried: the rows of the other
    // documents of the packs it deletes; after: its new rows; fresh: not in the index yet) and by group; kept from
    // batch to batch and cleared, since a batch of thousands of documents makes these tables large-object-heap arrays,
    // and each new one pushed the bulk insert into more full garbage collections.
    private readonly Dictionary<string, List<MapRow>> _before = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<MapRow>> _carried = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<MapRow>?> _after = new(StringComparer.Ordinal);
    private readonly Dictionary<string, AddedKeys.Slot> _fresh = new(StringComparer.Ordinal);
    private readonly Dictionary<string, long> _groupEtags = new(StringComparer.Ordinal);
    private readonly List<(string Key, List<MapRow> Rows)> _written = [];
    private readonly Dictionary<string, List<MapRow>> _removed = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<MapRow>> _added = new(StringComparer.Ordinal);
    private IndexWriter? _statesWriter;
    private DirectoryReader? _reader;
    private IndexWriter? _readerWriter;

    // Held while results are written (by a refresh, from the take to the last update; or on the indexer's side): the
    // index's refresh lock, which whatever closes, rolls back or commits the Lucene index takes too.
    private readonly object _resultsLock;

    /// <param name="compiled">The index.</param>
    /// <param name="resultsLock">The lock results are written under (see <see cref="TakeUnwrittenResults"/>).</param>
    public Reducer(CompiledIndex compiled, object resultsLock)
    {
        _resultsLock = resultsLock;
        _compiled = compiled;
        _definition = compiled.Definition;
        _mapper = new ReduceMapper(compiled);
        _findsMembers = _mapper.Extremes.Contains(true);
        _rowsWriter = new BinaryWriter(_rowsBuffer, System.Text.Encoding.UTF8, leaveOpen: true);
        Results = new CompiledIndex(ReduceResults.Definition(_definition));
        _resultMapper = new DocumentMapper(Results);
    }

    /// <summary>The results' fields: what queries on the index parse and sort against.</summary>
    public CompiledIndex Results { get; }

    /// <summary>
    /// Applies the items of <paramref name="batch"/> after <paramref name="from"/>; returns how many documents were
    /// mapped. <paramref name="addedKeys"/> (for an index opened empty) says which documents cannot have entries yet:
    /// theirs are added without a lookup or a delete term.
    /// </summary>
    public int Apply(LuceneIndex lucene, IndexingBatch batch, long from, List<IndexingError> errors, DateTimeOffset now, AddedKeys? addedKeys)
    {
        ForgetStatesOfOtherWriters(lucene);
        // Opened only when something must be read (a document that may have entries, a group whose state is not kept):
        // each reopen flushes the writer's buffer into a new small segment.
        DirectoryReader? reader = null;
        DirectoryReader Read() => reader ??= Reader(lucene);
        var (before, carried, after, fresh, groupEtags) = (_before, _carried, _after, _fresh, _groupEtags);
        ClearBatch();
        var problems = new List<string>();
        var mapped = 0;
        foreach (var item in batch.Items)
        {
            if (item.Etag <= from)
                continue;
            var key = IndexFields.KeyTerm(item.Key);
            if (!before.ContainsKey(key))
            {
                var slot = addedKeys is null ? default : AddedKeys.Locate(key);
                if (addedKeys is not null && !addedKeys.MayContain(slot))
                {
                    before[key] = s_noRows;
                    fresh[key] = slot;
                }
                else
                {
                    before[key] = ReadRows(Read(), key, carried);
                }
            }
            if (item.Unreadable is { } why)
                errors.Add(new IndexingError(_definition.Name, item.Key, $"The stored document could not be read ({why}); it is left out of the index.", now, item.Etag));
            List<MapRow>? rows = null;
            if (item.Document is { } document && _compiled.Covers(document.Header.EntityName))
            {
                problems.Clear();
                rows = _mapper.Map(document, problems);
                foreach (var problem in problems)
                    errors.Add(new IndexingError(_definition.Name, item.Key, problem, now, item.Etag));
                mapped++;
            }
            after[key] = rows;
            foreach (var row in before[key])
                groupEtags[row.Group] = item.Etag;
            if (rows is not null)
            {
                foreach (var row in rows)
                    groupEtags[row.Group] = item.Etag;
            }
        }

        // Deleting by a key deletes the map-entry document that holds it, pack and all; the batch's documents with
        // entries, and the others of the packs deleted, are then added in new packs (after the deletes, which apply
        // only to documents added before them).
        var written = _written;
        foreach (var (key, rows) in after)
        {
            if (before[key].Count > 0)
                lucene.Writer.DeleteDocuments(new Term(SourceField, key));
            if (rows is not { Count: > 0 })
                continue;
            if (fresh.TryGetValue(key, out var slot))
                addedKeys!.Add(slot);
            written.Add((key, rows));
        }
        foreach (var (key, rows) in carried)
        {
            if (!after.ContainsKey(key))
                written.Add((key, rows));
        }
        for (var start = 0; start < written.Count; start += PackSize)
            lucene.Writer.AddDocument(MapEntries(written, start, Math.Min(PackSize, written.Count - start)));

        var (removed, added) = (_removed, _added);
        foreach (var (key, rows) in before)
        {
            foreach (var row in rows)
                RowsOf(removed, row.Group).Add(row);
            foreach (var row in after[key] ?? [])
                RowsOf(added, row.Group).Add(row);
        }
        foreach (var (group, etag) in groupEtags)
        {
            var state = Reduce(Read, group, removed.GetValueOrDefault(group), added.GetValueOrDefault(group), after, out var keys);
            Keep(lucene, group, state, keys);
            _unwritten[group] = etag;
        }
        return mapped;
    }

    private void ClearBatch()
    {
        _before.Clear();
        _carried.Clear();
        _after.Clear();
        _fresh.Clear();
        _groupEtags.Clear();
        _written.Clear();
        _removed.Clear();
        _added.Clear();
    }

    /// <summary>Whether some groups' results are newer in memory than in the writer (<see cref="WriteResults(LuceneIndex)"/> writes them).</summary>
    public bool HasUnwrittenResults => _unwritten.Count > 0;

    /// <summary>
    /// Writes the result of every group reduced since the last call (a group emptied is deleted), each once however
    /// many batches touched it. The caller calls this before anything reads the writer (a refresh, a commit): until
    /// then the kept states are the groups' truth, and a bulk insert that touches every group in every batch writes
    /// each result once per refresh instead of once per batch. Called on the indexer's side (under the index's write
    /// lock); it first waits for results a refresh is writing (<see cref="TakeUnwrittenResults"/>), so what it writes
    /// comes after them and a commit holds them.
    /// </summary>
    public void WriteResults(LuceneIndex lucene)
    {
        lock (_resultsLock)
        {
            if (_unwritten.Count == 0)
                return;
            foreach (var (group, etag) in _unwritten)
            {
                var (state, keys) = _states[group];
                if (state.Count == 0)
                    _states.Remove(group);
                WriteResult(lucene, group, keys, state.Count == 0 ? null : state, etag);
            }
            _unwritten.Clear();
        }
    }

    /// <summary>
    /// Takes the results reduced since the last write, for a refresh to write with <see cref="WriteResults(LuceneIndex, PendingResults)"/>
    /// without holding the index's write lock (each is a Lucene document to build and update, a thousand per refresh in
    /// a bulk insert, and the indexer would wait for all of them). Called under the write lock and with the results
    /// lock taken (by the caller, released after the write): the states are copied,
    /// since the indexer goes on changing them, and an emptied group's state stays kept (empty), so no batch reads its
    /// result from the index before the delete is written.
    /// </summary>
    public PendingResults TakeUnwrittenResults()
    {
        var pending = new List<(string Group, string?[]? Keys, GroupState? State, long Etag)>(_unwritten.Count);
        foreach (var (group, etag) in _unwritten)
        {
            var (state, keys) = _states[group];
            pending.Add((group, keys, state.Count == 0 ? null : state.Copy(), etag));
        }
        _unwritten.Clear();
        return new PendingResults(pending);
    }

    /// <summary>
    /// Writes what <see cref="TakeUnwrittenResults"/> took, on the refresher's thread while the indexer goes on: the
    /// caller holds the results lock from the take to the end of this, so a commit, a rollback or an indexer-side
    /// <see cref="WriteResults(LuceneIndex)"/> waits until these are in the writer.
    /// </summary>
    public void WriteResults(LuceneIndex lucene, PendingResults pending)
    {
        lock (_resultsLock)
        {
            foreach (var (group, keys, state, etag) in pending.Results)
                WriteResult(lucene, group, keys, state, etag);
        }
    }

    /// <summary>Replaces a group's result document, or deletes it when <paramref name="state"/> is null (the group emptied).</summary>
    private void WriteResult(LuceneIndex lucene, string group, string?[]? keys, GroupState? state, long etag)
    {
        var term = new Term(ResultField, group);
        if (state is null)
            lucene.Writer.DeleteDocuments(term);
        else
            lucene.Writer.UpdateDocument(term, Result(group, keys!, state, etag));
    }

    /// <summary>
    /// Remembers the state reduced for <paramref name="group"/> (an emptied group's too, until its result is deleted),
    /// so the next batch that touches it reads no stored result, and so its result can be written later. Bounded: past
    /// <see cref="MaxKeptStates"/> groups the unwritten results are written and the kept states dropped, to be read
    /// again as needed.
    /// </summary>
    private void Keep(LuceneIndex lucene, string group, GroupState state, string?[]? keys)
    {
        if (_states.Count >= MaxKeptStates && !_states.ContainsKey(group))
        {
            WriteResults(lucene);
            _states.Clear();
        }
        _states[group] = (state, keys);
    }

    /// <summary>
    /// The kept states are what this writer wrote: after a rollback (a new writer, opened at the last commit) they may
    /// be ahead of the index, so they are forgotten.
    /// </summary>
    private void ForgetStatesOfOtherWriters(LuceneIndex lucene)
    {
        if (!ReferenceEquals(_statesWriter, lucene.Writer))
        {
            _states.Clear();
            _unwritten.Clear();
            _statesWriter = lucene.Writer;
        }
    }

    private static List<MapRow> RowsOf(Dictionary<string, List<MapRow>> rows, string group)
    {
        if (!rows.TryGetValue(group, out var list))
            rows[group] = list = [];
        return list;
    }

    // read: the reader, opened on first use. Opened after this batch's entries were written it sees them, which changes
    // nothing: this batch's documents (changed) are taken from the batch, and no other group's result is read here.
    private GroupState Reduce(Func<DirectoryReader> read, string group, List<MapRow>? removed, List<MapRow>? added,
        Dictionary<string, List<MapRow>?> changed, out string?[]? keys)
    {
        GroupState state;
        if (_states.TryGetValue(group, out var kept))
            (state, keys) = kept;
        else
            state = ReadState(read(), group, out keys) ?? new GroupState(_mapper.Extremes);
        var exact = true;
        foreach (var row in removed ?? [])
            exact &= state.TryRemove(row);
        if (!exact)
        {
            state = new GroupState(_mapper.Extremes);
            foreach (var (key, rows) in Members(read(), group))
            {
                if (changed.ContainsKey(key))
                    continue;
                foreach (var row in rows)
                {
                    if (row.Group == group)
                        state.Add(row);
                }
            }
        }
        foreach (var row in added ?? [])
        {
            state.Add(row);
            keys ??= row.Keys;
        }
        return state;
    }

    // The writer takes a document's fields as it is given them, so one set of field instances serves every map entry
    // and every result (as the document mapper's do): a new field would build its token stream, and Lucene.Net makes
    // a token stream's attributes by reflection.
    private LuceneDocument MapEntries(List<(string Key, List<MapRow> Rows)> written, int start, int count)
    {
        var document = _entry;
        document.Fields.Clear();
        _rowsBuffer.SetLength(0);
        _rowsWriter.Write7BitEncodedInt(count);
        for (var i = 0; i < count; i++)
        {
            var (key, rows) = written[start + i];
            if (i == _entrySources.Count)
                _entrySources.Add(new StringField(SourceField, "", Field.Store.NO));
            _entrySources[i].SetStringValue(key);
            document.Add(_entrySources[i]);
            _rowsWriter.Write(key);
            MapRow.Write(rows, _rowsWriter);
        }
        (_entryRowsBytes.Bytes, _entryRowsBytes.Offset, _entryRowsBytes.Length) = (_rowsBuffer.GetBuffer(), 0, (int)_rowsBuffer.Length);
        _entryRows.SetBytesValue(_entryRowsBytes);
        document.Add(_entryRows);
        if (!_findsMembers)
            return document;
        var groups = 0;
        var seen = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < count; i++)
        {
            foreach (var row in written[start + i].Rows)
            {
                if (!seen.Add(row.Group))
                    continue;
                if (groups == _entryGroups.Count)
                    _entryGroups.Add(new StringField(GroupField, "", Field.Store.NO));
                _entryGroups[groups].SetStringValue(row.Group);
                document.Add(_entryGroups[groups++]);
            }
        }
        return document;
    }

    private LuceneDocument Result(string group, string?[] keys, GroupState state, long etag)
    {
        var json = ReduceResults.Json(_definition, _mapper, keys, state);
        var stored = StoredDocument.FromJson(group, etag, DateTimeOffset.UnixEpoch, ReduceResults.Metadata, json);
        using var parsed = new ParsedDocument(stored);
        _problems.Clear();
        var document = _resultMapper.Map(parsed, _problems);
        _resultGroup.SetStringValue(group);
        document.Add(_resultGroup);
        document.Add(_resultKind);
        _resultState.SetBytesValue(state.Write());
        document.Add(_resultState);
        _resultKeys.SetBytesValue(MapRow.Write([new MapRow(keys, [])]));
        document.Add(_resultKeys);
        // Doc values, not a stored field: a page of results reads each one directly, with no stored-field block to inflate.
        _resultJson.SetBytesValue(new BytesRef(json));
        document.Add(_resultJson);
        return document;
    }

    /// <summary>
    /// The current results of <paramref name="versions"/>, read by their doc ids (<paramref name="docs"/>, as the page
    /// search found them in <paramref name="reader"/>): the JSON from the results' binary doc values (stored fields in
    /// results written before they had them). A result in a segment never changes (an update is a new document), so the
    /// built document is kept per segment core and shared by every later query that pages over it.
    /// </summary>
    public static IReadOnlyList<StoredDocument?> Load(IndexReader reader, IReadOnlyList<KnownVersion> versions, IReadOnlyList<int> docs)
    {
        var results = new StoredDocument?[versions.Count];
        var leaves = reader.Leaves;
        var scratch = new BytesRef();
        for (var i = 0; i < versions.Count; i++)
        {
            var context = leaves[ReaderUtil.SubIndex(docs[i], leaves)];
            var leaf = context.AtomicReader;
            var doc = docs[i] - context.DocBase;
            var built = s_built.GetValue(leaf.CoreCacheKey, static _ => new ConcurrentDictionary<int, StoredDocument>());
            if (built.TryGetValue(doc, out var cached) && cached.Etag == versions[i].Etag)
            {
                results[i] = cached;
                continue;
            }
            if (Json(leaf, doc, scratch) is not { } json)
                continue;
            var document = StoredDocument.FromJson(versions[i].Key, versions[i].Etag, DateTimeOffset.UnixEpoch, ReduceResults.Metadata, json);
            built[doc] = document;
            results[i] = document;
        }
        return results;
    }

    private static byte[]? Json(AtomicReader leaf, int doc, BytesRef scratch)
    {
        if (leaf.GetBinaryDocValues(JsonField) is { } values)
        {
            values.Get(doc, scratch);
            if (scratch.Length > 0)
                return scratch.Bytes.AsSpan(scratch.Offset, scratch.Length).ToArray();
        }
        var visitor = new DocumentStoredFieldVisitor(JsonField);
        leaf.Document(doc, visitor);
        return visitor.Document.GetBinaryValue(JsonField) is { } stored ? stored.Bytes.AsSpan(stored.Offset, stored.Length).ToArray() : null;
    }

    /// <summary>The rows kept for <paramref name="key"/> (none when it has none); those of the other documents packed with it go to <paramref name="others"/>.</summary>
    private static List<MapRow> ReadRows(IndexReader reader, string key, Dictionary<string, List<MapRow>> others)
    {
        if (First(reader, SourceField, key) is not ({ } leaf, var doc))
            return [];
        List<MapRow> found = [];
        foreach (var (source, rows) in Entries(leaf.Document(doc)))
        {
            if (source == key)
                found = rows;
            else
                others.TryAdd(source, rows);
        }
        return found;
    }

    /// <summary>The source documents' keys and rows in a map-entry document, of either layout.</summary>
    private static List<(string Key, List<MapRow> Rows)> Entries(LuceneDocument stored)
    {
        if (stored.GetBinaryValue(PackField) is { } pack)
        {
            using var stream = new MemoryStream(pack.Bytes, pack.Offset, pack.Length, writable: false);
            using var reader = new BinaryReader(stream, System.Text.Encoding.UTF8);
            var count = reader.Read7BitEncodedInt();
            var entries = new List<(string, List<MapRow>)>(count);
            for (var i = 0; i < count; i++)
                entries.Add((reader.ReadString(), MapRow.Read(reader)));
            return entries;
        }
        var bytes = stored.GetBinaryValue(RowsField);
        return bytes is null ? [] : [(stored.Get(SourceField, CultureInfo.InvariantCulture), MapRow.Read(bytes.Bytes.AsSpan(bytes.Offset, bytes.Length)))];
    }

    private GroupState? ReadState(IndexReader reader, string group, out string?[]? keys)
    {
        keys = null;
        if (First(reader, ResultField, group) is not ({ } leaf, var doc))
            return null;
        var stored = leaf.Document(doc);
        var state = stored.GetBinaryValue(StateField);
        var keyRow = stored.GetBinaryValue(KeysField);
        keys = MapRow.Read(keyRow.Bytes.AsSpan(keyRow.Offset, keyRow.Length))[0].Keys;
        return GroupState.Read(state.Bytes.AsSpan(state.Offset, state.Length), _mapper.Extremes);
    }

    private static IEnumerable<(string Key, List<MapRow> Rows)> Members(IndexReader reader, string group)
    {
        var term = new BytesRef(group);
        foreach (var context in reader.Leaves)
        {
            var leaf = context.AtomicReader;
            if (Docs(leaf, GroupField, term) is not { } docs)
                continue;
            for (var doc = docs.NextDoc(); doc != Lucene.Net.Search.DocIdSetIterator.NO_MORE_DOCS; doc = docs.NextDoc())
            {
                foreach (var entry in Entries(leaf.Document(doc)))
                    yield return entry;
            }
        }
    }

    /// <summary>
    /// The first live document with the term, segment by segment: a composite view over every segment
    /// (<c>MultiFields</c>) would be built again on every lookup.
    /// </summary>
    private static (AtomicReader? Leaf, int Doc) First(IndexReader reader, string field, string term)
    {
        var bytes = new BytesRef(term);
        foreach (var context in reader.Leaves)
        {
            var leaf = context.AtomicReader;
            if (Docs(leaf, field, bytes) is { } docs && docs.NextDoc() is var doc && doc != Lucene.Net.Search.DocIdSetIterator.NO_MORE_DOCS)
                return (leaf, doc);
        }
        return (null, -1);
    }

    private static DocsEnum? Docs(AtomicReader leaf, string field, BytesRef term)
    {
        var terms = leaf.GetTerms(field);
        if (terms is null)
            return null;
        var iterator = terms.GetEnumerator();
        return iterator.SeekExact(term) ? iterator.Docs(leaf.LiveDocs, null, DocsFlags.NONE) : null;
    }

    /// <summary>A near-real-time reader of everything the writer holds (earlier batches included), reopened only when it changed.</summary>
    private DirectoryReader Reader(LuceneIndex lucene)
    {
        if (_reader is not null && ReferenceEquals(_readerWriter, lucene.Writer))
        {
            if (DirectoryReader.OpenIfChanged(_reader, lucene.Writer, applyAllDeletes: true) is { } newer)
            {
                _reader.Dispose();
                _reader = newer;
            }
            return _reader;
        }
        _reader?.Dispose();
        _reader = DirectoryReader.Open(lucene.Writer, applyAllDeletes: true);
        _readerWriter = lucene.Writer;
        return _reader;
    }

    public void Dispose()
    {
        ClearBatch();
        _states.Clear();
        _unwritten.Clear();
        _statesWriter = null;
        var reader = Interlocked.Exchange(ref _reader, null);
#pragma warning disable CA1031 // The writer may be gone already (a rollback); the reader is thrown away either way.
        try
        {
            reader?.Dispose();
        }
        catch (Exception)
        {
        }
#pragma warning restore CA1031
    }
}

/// <summary>Group results taken by <see cref="Reducer.TakeUnwrittenResults"/> to be written: a null state deletes the group's result.</summary>
internal sealed class PendingResults(List<(string Group, string?[]? Keys, GroupState? State, long Etag)> results)
{
    public List<(string Group, string?[]? Keys, GroupState? State, long Etag)> Results { get; } = results;
}
