// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Text;

namespace Cicero.StorageTopology.Tests;

/// <summary>Runs the built command line as a child process with its output piped, as a script or CI would.</summary>
internal sealed class Cli : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _out = new();
    private readonly StringBuilder _err = new();
    private readonly Lock _lock = new();
    private readonly TaskCompletionSource _firstLine = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly List<(Func<string, bool> Matches, TaskCompletionSource<string> Seen)> _awaited = [];

    private Cli(IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
        };

        // A shell without job control starts a background job ("dotnet test ... &") with SIGINT ignored (nohup-like
        // wrappers may ignore more), children inherit that, and .NET leaves an ignored signal ignored: the command would
        // never see the signal a test sends. coreutils' env puts the default dispositions back before it runs the command.
        if (StopSignalsIgnored())
        {
            start.FileName = "env";
            start.ArgumentList.Add("--default-signal=INT,TERM");
            start.ArgumentList.Add("dotnet");
        }

        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "StorageTopology.dll"));
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment.Remove("NO_COLOR");
        foreach (var (key, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[key] = value;
        }

        _process = new Process { StartInfo = start };
        _process.OutputDataReceived += (_, e) => Append(_out, e.Data, signal: true);
        _process.ErrorDataReceived += (_, e) => Append(_err, e.Data, signal: false);
        _process.Start();
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    public string Out
    {
        get
        {
            lock (_lock)
            {
                return _out.ToString();
            }
        }
    }

    public string Err
    {
        get
        {
            lock (_lock)
            {
                return _err.ToString();
            }
        }
    }

    public static Cli Start(IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null) => new(args, environment);

    /// <summary>Runs to the end (at most <paramref name="limit"/>) and returns the exit code.</summary>
    public static async Task<(int ExitCode, string Out, string Err)> RunAsync(IEnumerable<string> args, TimeSpan limit, IReadOnlyDictionary<string, string>? environment = null)
    {
        using var cli = Start(args, environment);
        var code = await cli.WaitAsync(limit);
        return (code, cli.Out, cli.Err);
    }

    /// <summary>Completes when the command has printed its first line of standard output.</summary>
    public Task FirstLineAsync(TimeSpan limit) => _firstLine.Task.WaitAsync(limit, TimeProvider.System);

    /// <summary>Completes with the first line of standard output (already printed or printed later) that <paramref name="matches"/> accepts.</summary>
    public Task<string> LineAsync(Func<string, bool> matches, TimeSpan limit)
    {
        var seen = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_lock)
        {
            if (_out.ToString().Split('\n').FirstOrDefault(matches) is { } printed)
            {
                return Task.FromResult(printed);
            }

            _awaited.Add((matches, seen));
        }

        return seen.Task.WaitAsync(limit, TimeProvider.System);
    }

    /// <summary>Sends a POSIX signal (<c>INT</c>, <c>TERM</c>) to the command.</summary>
    public void Signal(string name)
    {
        using var kill = Process.Start("kill", ["-" + name, _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
    }

    public async Task<int> WaitAsync(TimeSpan limit)
    {
        using var timeout = new CancellationTokenSource(limit);
        try
        {
            await _process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException) when (timeout.IsCancellationRequested)
        {
            throw new TimeoutException($"the command did not exit within {limit.TotalSeconds:F0} s; out: {Out} err: {Err}");
        }


        // The parameterless wait drains the redirected streams.
        _process.WaitForExit();
        return _process.ExitCode;
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        _process.Dispose();
    }

    // /proc/self/status's SigIgn is a hexadecimal mask of the ignored signals, signal n at bit n - 1: SIGINT (2), SIGTERM (15).
    private static bool StopSignalsIgnored()
    {
        const string Status = "/proc/self/status";
        if (!OperatingSystem.IsLinux() || !File.Exists(Status))
        {
            return false;
        }

        var mask = File.ReadLines(Status).FirstOrDefault(line => line.StartsWith("SigIgn:", StringComparison.Ordinal))?["SigIgn:".Length..].Trim();
        return mask is not null
            && ulong.TryParse(mask, System.Globalization.NumberStyles.HexNumber, System.Globalization.CultureInfo.InvariantCulture, out var ignored)
            && (ignored & ((1UL << 1) | (1UL << 14))) != 0;
    }

    private void Append(StringBuilder target, string? line, bool signal)
    {
        if (line is null)
        {
            return;
        }

        List<TaskCompletionSource<string>> seen = [];
        lock (_lock)
        {
            target.Append(line).Append('\n');
            if (signal)
            {
                seen.AddRange(_awaited.Where(awaited => awaited.Matches(line)).Select(awaited => awaited.Seen));
                _awaited.RemoveAll(awaited => seen.Contains(awaited.Seen));
            }
        }

        foreach (var waiter in seen)
        {
            waiter.TrySetResult(line);
        }

        if (signal)
        {
            _firstLine.TrySetResult();
        }
    }
}
