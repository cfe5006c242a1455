using System.Buffers;

namespace RavenLite.Server.Json;

/// <summary>Rented buffers that grow: the one rule for moving what a buffer holds into a larger rented one.</summary>
internal static class PooledBytes
{
    /// <summary>
    /// Makes room for <paramref name="size"/> more bytes after the <paramref name="used"/> ones in <paramref name="buffer"/>:
    /// when it is too small, rents one at least twice as large, copies the used bytes over, and returns the old one.
    /// </summary>
    public static void Grow(ref byte[] buffer, int used, int size)
    {
        if (buffer.Length - used >= size)
            return;
        var larger = ArrayPool<byte>.Shared.Rent(checked(Math.Max(buffer.Length * 2, used + size)));
        buffer.AsSpan(0, used).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(buffer);
        buffer = larger;
    }
}
