using Newtonsoft.Json;

namespace RavenLite.Storage.Documents;

internal ref partial struct BsonTokenReader
{
    // Two BSON types became JSON objects of several tokens, read one token per call through the old reader's
    // own states. Writes never produce either type and validation refuses both, so only damaged or misread
    // bytes get here; their quirks are kept anyway.

    /// <summary>A DBPointer: <c>{"$ref": collection, "$id": base64 ObjectId}</c>, credited to the enclosing container.</summary>
    private bool ReadReference()
    {
        switch (_state)
        {
            case State.ObjectStart:
                Property("$ref");
                _mode = Mode.ReferenceRef;
                return true;
            case State.Property when _mode == Mode.ReferenceRef:
                String(ReadLengthString());
                return true;
            case State.Property when _mode == Mode.ReferenceId:
                Bytes(ReadBytes(12));
                return true;
            case State.PostValue when _mode == Mode.ReferenceRef:
                Property("$id");
                _mode = Mode.ReferenceId;
                return true;
            case State.PostValue when _mode == Mode.ReferenceId:
                EndContainer(isArray: false);
                _mode = Mode.Normal;
                return true;
            default:
                throw new JsonReaderException($"Unexpected state when reading BSON reference: {_state}, {_mode}");
        }
    }

    /// <summary>Code with scope: <c>{"$code": code, "$scope": {...}}</c>.</summary>
    private bool ReadCodeWithScope()
    {
        switch (_mode)
        {
            case Mode.CodeStart:
                Property("$code");
                _mode = Mode.Code;
                return true;
            case Mode.Code:
                ReadInt32(); // the total size, which the old reader ignored
                String(ReadLengthString());
                _mode = Mode.Scope;
                return true;
            case Mode.Scope when _state == State.PostValue:
                Property("$scope");
                return true;
            case Mode.Scope:
                OpenJson(isArray: false);
                _mode = Mode.ScopeObject;
                var scope = new Container(isArray: false);
                _containers.Add(scope);
                scope.Length = ReadInt32();
                WriteStart(isArray: false);
                return true;
            case Mode.ScopeObject:
                // The old reader took the first object to end inside the scope, even a nested one, for the scope's
                // end and wrote one more end at once; the scope's remaining elements followed, and the scope's real
                // end closed the code object.
                var ended = _objectsEnded;
                var read = ReadNormal();
                if (read && _objectsEnded != ended)
                    _mode = Mode.ScopeEnd;
                return read;
            default: // Mode.ScopeEnd
                EndContainer(isArray: false);
                _mode = Mode.Normal;
                return true;
        }
    }
}
