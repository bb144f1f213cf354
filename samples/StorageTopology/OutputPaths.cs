// SPDX-License-Identifier: Apache-2.0

using System.Runtime.InteropServices;

namespace Cicero.StorageTopology;

/// <summary>
/// Checks an output path before a command runs: a report folder must be absent or a real directory whose report files
/// are regular files, an output file absent or a regular file, and either must be writable. A symbolic link, a FIFO, a
/// device or a socket is refused, so nothing but the command's own files is ever replaced.
/// </summary>
internal static partial class OutputPaths
{
    private const int TypeMask = 0xF000;
    private const int RegularFile = 0x8000;
    private const int DirectoryType = 0x4000;

    /// <summary>The extensions of the files a report writes; existing entries with them must be regular files.</summary>
    private static readonly string[] ReportExtensions = [".html", ".csv", ".json", ".png"];

    /// <summary>Checks a report folder and creates it when absent.</summary>
    /// <param name="folder">The folder.</param>
    /// <param name="option">The option that named it, for the message.</param>
    /// <returns>The problem, or <see langword="null"/> when the report can be written there.</returns>
    public static string? CheckFolder(string folder, string option = "--output")
    {
        var type = TypeOf(folder);
        if (type is not null && type != DirectoryType)
        {
            return $"{option} {CommandErrors.Echo(folder)} is {Describe(type.Value)}, not a directory; refusing to write into it.";
        }

        try
        {
            Directory.CreateDirectory(folder);
            foreach (var entry in Directory.EnumerateFileSystemEntries(folder))
            {
                if (ReportExtensions.Contains(Path.GetExtension(entry), StringComparer.OrdinalIgnoreCase) && TypeOf(entry) is { } kind && kind != RegularFile)
                {
                    return $"{option} {CommandErrors.Echo(folder)}: {CommandErrors.Echo(Path.GetFileName(entry))} is {Describe(kind)}, not a regular file; refusing to replace it.";
                }
            }

            Probe(folder);
            return null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return $"{option} {CommandErrors.Echo(folder)} cannot be written: {ex.Message}";
        }
    }

    /// <summary>Checks an output file: absent or a regular file, in a folder that can be written.</summary>
    /// <param name="path">The file.</param>
    /// <param name="option">The option that named it, for the message.</param>
    /// <returns>The problem, or <see langword="null"/>.</returns>
    public static string? CheckFile(string path, string option = "--output")
    {
        if (TypeOf(path) is { } type && type != RegularFile)
        {
            return $"{option} {CommandErrors.Echo(path)} is {Describe(type)}, not a regular file; refusing to replace it.";
        }

        var folder = Path.GetDirectoryName(Path.GetFullPath(path))!;
        if (!Directory.Exists(folder))
        {
            return $"{option} {CommandErrors.Echo(path)}: the folder {CommandErrors.Echo(folder)} does not exist.";
        }

        try
        {
            Probe(folder);
            return null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return $"{option} {CommandErrors.Echo(path)} cannot be written: {ex.Message}";
        }
    }

    /// <summary>Gets the file type bits of <paramref name="path"/> without following a link, or <see langword="null"/> when nothing is there.</summary>
    private static int? TypeOf(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            var info = new FileInfo(path);
            return !info.Exists && !Directory.Exists(path) ? null
                : info.Attributes.HasFlag(FileAttributes.ReparsePoint) ? 0xA000
                : info.Attributes.HasFlag(FileAttributes.Directory) ? DirectoryType : RegularFile;
        }

        // The runtime's own lstat shim: the BCL reports FIFOs and devices as ordinary files.
        return LStat(path, out var status) == 0 ? status.Mode & TypeMask : null;
    }

    private static string Describe(int type) => type switch
    {
        0x1000 => "a FIFO",
        0x2000 => "a character device",
        0x6000 => "a block device",
        0xA000 => "a symbolic link",
        0xC000 => "a socket",
        DirectoryType => "a directory",
        _ => "not a regular file",
    };

    private static void Probe(string folder)
    {
        var probe = Path.Combine(folder, $".cicero-write-check.{Environment.ProcessId}.tmp");
        using (new FileStream(probe, FileMode.CreateNew, FileAccess.Write, FileShare.None, bufferSize: 1, FileOptions.DeleteOnClose))
        {
        }
    }

    [LibraryImport("libSystem.Native", EntryPoint = "SystemNative_LStat", StringMarshalling = StringMarshalling.Utf8)]
    private static partial int LStat(string path, out FileStatusPrefix status);

    /// <summary>The first fields of the runtime's <c>FileStatus</c>; sized well beyond the whole struct.</summary>
    [StructLayout(LayoutKind.Sequential, Size = 256)]
    private struct FileStatusPrefix
    {
        public int Flags;
        public int Mode;
    }
}
