namespace RavenLite.Storage.Bson;

/// <summary>The BSON element types RavenLite writes.</summary>
internal static class BsonTypes
{
    public const byte Double = 0x01, String = 0x02, Object = 0x03, Array = 0x04, Boolean = 0x08, Null = 0x0A, Int64 = 0x12, Decimal128 = 0x13;
}
