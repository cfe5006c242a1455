using System.Diagnostics;

namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>
/// A small tmpfs mounted on a fresh folder, so a test can fill a real disk; unmounted and removed on dispose.
/// Needs Linux and the right to mount (root, or CAP_SYS_ADMIN); see <see cref="SmallDiskFactAttribute"/>.
/// </summary>
public sealed class SmallDisk : IDisposable
{
    public SmallDisk(int megabytes)
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "ravenlite-tests", "disk-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path);
        if (Run("mount", "-t", "tmpfs", "-o", $"size={megabytes}m", "tmpfs", Path) is { } error)
        {
            Directory.Delete(Path);
            throw new InvalidOperationException($"Mounting a {megabytes} MiB tmpfs failed: {error}");
        }
    }

    public string Path { get; }

    /// <summary>Why a small disk cannot be mounted here, or null when it can (found once, by mounting one).</summary>
    public static string? Unavailable { get; } = Probe();

    public void Dispose()
    {
        if (Run("umount", Path) is not null)
            Run("umount", "-l", Path); // a file still open: detach now, the kernel frees it when closed
        Directory.Delete(Path);
    }

    private static string? Probe()
    {
        if (!OperatingSystem.IsLinux())
            return "a tmpfs needs Linux";
        try
        {
            new SmallDisk(1).Dispose();
            return null;
        }
        catch (Exception ex) when (ex is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            return ex.Message;
        }
    }

    /// <returns>Null on success, else what the command said.</returns>
    private static string? Run(string command, params string[] arguments)
    {
        var start = new ProcessStartInfo(command) { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (var argument in arguments)
            start.ArgumentList.Add(argument);
        using var process = Process.Start(start)!;
        var error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        return process.ExitCode == 0 ? null : $"{command} exited with {process.ExitCode}: {error.Trim()}";
    }
}

/// <summary>A test that needs a <see cref="SmallDisk"/>: skipped, with the reason, where none can be mounted.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class SmallDiskFactAttribute : FactAttribute
{
    public SmallDiskFactAttribute()
    {
        if (SmallDisk.Unavailable is { } reason)
            Skip = $"Cannot mount a small tmpfs to fill: {reason}";
    }
}
