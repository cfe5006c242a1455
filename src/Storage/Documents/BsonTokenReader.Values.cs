using System.Globalization;

namespace RavenLite.Storage.Documents;

internal ref partial struct BsonTokenReader
{
    /// <summary>Reads and writes the value of an element of <paramref name="type"/> (the old reader's ReadType).</summary>
    private void ReadValue(byte type)
    {
        switch (type)
        {
            case 0x01:
                var number = ReadDouble();
                AfterValue();
                BsonJsonTranscoder.WriteDouble(number, _writer);
                break;
            case 0x02 or 0x0D or 0x0E: // string, JavaScript code, symbol
                String(ReadLengthString());
                break;
            case 0x03 or 0x04:
                StartContainer(isArray: type == 0x04);
                break;
            case 0x05:
                ReadBinary();
                break;
            case 0x06 or 0x0A: // undefined, null
                AfterValue();
                _writer.WriteNullValue();
                break;
            case 0x07: // ObjectId: twelve bytes, base64 like any binary
                Bytes(ReadBytes(12));
                break;
            case 0x08:
                var flag = ReadByte() != 0;
                AfterValue();
                _writer.WriteBooleanValue(flag);
                break;
            case 0x09:
                Date(BsonJsonTranscoder.DateTicks(ReadInt64()));
                break;
            case 0x0B:
                var pattern = ReadCString();
                var options = ReadCString();
                String("/" + pattern + "/" + options);
                break;
            case 0x0C: // DBPointer, read as {"$ref": collection, "$id": ObjectId}
                OpenJson(isArray: false);
                _mode = Mode.ReferenceStart;
                _writer.WriteStartObject();
                break;
            case 0x0F: // code with scope, read as {"$code": code, "$scope": document}
                OpenJson(isArray: false);
                _mode = Mode.CodeStart;
                _writer.WriteStartObject();
                break;
            case 0x10:
                Integer(ReadInt32());
                break;
            case 0x11 or 0x12: // timestamp, int64
                Integer(ReadInt64());
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(type), "Unexpected BsonType value: " + TypeName(type));
        }
    }

    private void ReadBinary()
    {
        var length = ReadInt32();
        var subtype = ReadByte();
        if (subtype == 2)
            length = ReadInt32(); // the old binary subtype repeats its length, and the old reader went by that one
        var data = ReadBytes(length);
        if (subtype == 4)
            GuidValue(new Guid(data.ToArray())); // the old reader's Guid, refusing any other length as it did
        else
            Bytes(data);
    }

    /// <summary>How the old reader named a type it did not know (its enum's names for min and max key).</summary>
    private static string TypeName(byte type) => type switch
    {
        0xFF => "MinKey",
        0x7F => "MaxKey",
        _ => ((sbyte)type).ToString(CultureInfo.InvariantCulture),
    };
}
