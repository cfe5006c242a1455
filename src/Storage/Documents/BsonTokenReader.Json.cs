using System.Globalization;
using Newtonsoft.Json;

namespace RavenLite.Storage.Documents;

internal ref partial struct BsonTokenReader
{
    // The old reader's JSON side (Newtonsoft's JsonReader) tracked the containers it had opened apart from
    // the BSON ones. They can disagree (code with scope could close an object early), and that side decided
    // when reading finished, how deep was too deep, and which end tokens were an error. Each method below does
    // that bookkeeping, then writes the token as the old path's writer did.

    /// <summary>Opens a document or array: JSON side first, then the length that the new container is credited with.</summary>
    private void StartContainer(bool isArray)
    {
        OpenJson(isArray);
        var container = new Container(isArray);
        _containers.Add(container);
        container.Length = ReadInt32();
        WriteStart(isArray);
    }

    private void OpenJson(bool isArray)
    {
        _open.Add(isArray);
        _state = isArray ? State.ArrayStart : State.ObjectStart;
        if (_open.Count > MaxJsonDepth)
            throw new JsonReaderException($"The reader's MaxDepth of {MaxJsonDepth} has been exceeded.");
    }

    private void WriteStart(bool isArray)
    {
        if (isArray)
            _writer.WriteStartArray();
        else
            _writer.WriteStartObject();
    }

    private void EndContainer(bool isArray)
    {
        var closing = "None";
        if (_open.Count > 0)
        {
            closing = _open[^1] ? "Array" : "Object";
            _open.RemoveAt(_open.Count - 1);
        }
        if (closing != (isArray ? "Array" : "Object"))
            throw new JsonReaderException($"JsonToken {(isArray ? "EndArray" : "EndObject")} is not valid for closing JsonType {closing}.");
        _state = _open.Count > 0 ? State.PostValue : State.Finished;
        if (isArray)
        {
            _writer.WriteEndArray();
        }
        else
        {
            _writer.WriteEndObject();
            _objectsEnded++;
        }
    }

    private void Property(string name)
    {
        _state = State.Property;
        _writer.WritePropertyName(name);
    }

    /// <summary>After a scalar: the old reader finished once no JSON container was left open.</summary>
    private void AfterValue() => _state = _open.Count > 0 ? State.PostValue : State.Finished;

    private void String(string value)
    {
        AfterValue();
        _writer.WriteStringValue(value);
    }

    private void Integer(long value)
    {
        AfterValue();
        _writer.WriteNumberValue(value);
    }

    private void Bytes(ReadOnlySpan<byte> value)
    {
        AfterValue();
        _writer.WriteBase64StringValue(value);
    }

    private void GuidValue(Guid value)
    {
        AfterValue();
        _writer.WriteStringValue(value);
    }

    private void Date(long ticks)
    {
        var date = new DateTime(ticks, DateTimeKind.Utc); // throws for ticks out of range, as the old reader did
        AfterValue();
        _writer.WriteStringValue(date.ToString("O", CultureInfo.InvariantCulture));
    }
}
