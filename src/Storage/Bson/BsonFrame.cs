namespace RavenLite.Storage.Bson;

/// <summary>
/// An object or array open while a document is encoded to BSON: where its length goes, the next array index, and
/// where its names start in the encoder's list (a set of them once there are many), or the bits of the names it has.
/// </summary>
internal struct BsonFrame(int lengthAt, bool isArray, int namesStart)
{
    public readonly int LengthAt = lengthAt;
    public readonly bool IsArray = isArray;
    public readonly int NamesStart = namesStart;
    public int NextIndex;
    public HashSet<string>? Names;
    public ulong SeenNames;
}
