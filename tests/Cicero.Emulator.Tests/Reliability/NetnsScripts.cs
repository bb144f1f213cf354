// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>Runs eng/netns's scripts as a caller without the privileges that network namespaces need.</summary>
internal static class NetnsScripts
{
    /// <summary>The full path of <paramref name="program"/> on PATH, or null.</summary>
    public static string? Find(string program) =>
        (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator)
            .Select(folder => Path.Combine(folder, program))
            .FirstOrDefault(File.Exists);

    /// <summary>
    /// Runs <c>eng/netns/<paramref name="script"/></c> with <paramref name="arguments"/>, through <c>setpriv</c> with
    /// <paramref name="privileges"/> when the tests run as root, and returns its exit code and output.
    /// </summary>
    public static async Task<(int ExitCode, string Output)> RunAsync(string script, string privileges, params string[] arguments)
    {
        var start = new ProcessStartInfo { RedirectStandardOutput = true, RedirectStandardError = true };
        if (IsRoot())
        {
            start.FileName = Find("setpriv")!;
            foreach (var part in privileges.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            {
                start.ArgumentList.Add(part);
            }

            start.ArgumentList.Add(Find("bash")!);
        }
        else
        {
            start.FileName = Find("bash")!;
        }

        start.ArgumentList.Add(Path.Combine(RepositoryRoot(), "eng", "netns", script));
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var limit = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        await process.WaitForExitAsync(limit.Token);
        return (process.ExitCode, await output + await error);
    }

    private static bool IsRoot() => File.ReadLines("/proc/self/status")
        .FirstOrDefault(line => line.StartsWith("Uid:", StringComparison.Ordinal))?
        .Split('\t', StringSplitOptions.RemoveEmptyEntries).ElementAtOrDefault(1) == "0";

    private static string RepositoryRoot()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "Cicero.sln")))
            {
                return folder.FullName;
            }
        }

        throw new InvalidOperationException($"No Cicero.sln above {AppContext.BaseDirectory}.");
    }
}
