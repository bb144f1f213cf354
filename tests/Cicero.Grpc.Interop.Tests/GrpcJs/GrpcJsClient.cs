// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Text.Json;
using Google.Protobuf;
using Grpc.Core;
using Xunit;

namespace Cicero.Grpc.Interop.Tests.GrpcJs;

/// <summary>
/// A grpc-js 1.14.7 client (<c>GrpcJs/client/call.js</c>, copied next to the tests). The first use installs it with
/// <c>npm ci</c> from the committed lock file, so <c>dotnet test</c> needs nothing but Node.js and npm on the path.
/// One instance per test class (<see cref="IClassFixture{TFixture}"/>).
/// </summary>
public sealed class GrpcJsClient : IAsyncLifetime
{
    private static readonly TimeSpan InstallLimit = TimeSpan.FromMinutes(5);
    private static readonly TimeSpan CallLimit = TimeSpan.FromMinutes(1);

    private readonly string _directory = Path.Combine(AppContext.BaseDirectory, "GrpcJs", "client");

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        if (File.Exists(Path.Combine(_directory, "node_modules", "@grpc", "grpc-js", "package.json")))
        {
            return;
        }

        var (exit, output) = await RunAsync("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts"], InstallLimit);
        Assert.True(exit == 0, $"npm ci in {_directory} failed ({exit}); the grpc-js interop tests need Node.js and npm on the path:\n{output}");
    }

    /// <inheritdoc />
    public Task DisposeAsync() => Task.CompletedTask;

    /// <summary>Makes one unary call with headers sent verbatim (a malformed <c>-bin</c> value included).</summary>
    /// <param name="address">The server, <c>http://127.0.0.1:port</c>.</param>
    /// <param name="method">The method, <c>/pkg.Service/Method</c>.</param>
    /// <param name="request">The request message.</param>
    /// <param name="headers">The headers, as they go on the wire.</param>
    /// <returns>The status and, on success, the response bytes.</returns>
    public async Task<GrpcJsResult> CallAsync(Uri address, string method, IMessage request, IReadOnlyDictionary<string, string> headers)
    {
        ArgumentNullException.ThrowIfNull(address);
        ArgumentNullException.ThrowIfNull(request);
        var (exit, output) = await RunAsync(
            "node",
            ["call.js", $"{address.Host}:{address.Port}", method, Convert.ToBase64String(request.ToByteArray()), JsonSerializer.Serialize(headers), "30000"],
            CallLimit);
        Assert.True(exit == 0, $"node call.js failed ({exit}):\n{output}");
        var line = output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Last(l => l.StartsWith('{'));
        using var json = JsonDocument.Parse(line);
        var root = json.RootElement;
        return new GrpcJsResult(
            (StatusCode)root.GetProperty("code").GetInt32(),
            root.GetProperty("details").GetString() ?? string.Empty,
            Convert.FromBase64String(root.GetProperty("response").GetString() ?? string.Empty));
    }

    private async Task<(int Exit, string Output)> RunAsync(string file, IEnumerable<string> arguments, TimeSpan limit)
    {
        var start = new ProcessStartInfo(file)
        {
            WorkingDirectory = _directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{file} did not start.");
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(limit);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{file} {string.Join(' ', start.ArgumentList)} did not finish within {limit}.");
        }

        return (process.ExitCode, await stdout + await stderr);
    }
}

/// <summary>What a grpc-js call ended with.</summary>
/// <param name="Status">The status code.</param>
/// <param name="Detail">The status message.</param>
/// <param name="Response">The response bytes on success.</param>
public sealed record GrpcJsResult(StatusCode Status, string Detail, byte[] Response);
