// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Microsoft.AspNetCore.Http;
using Xunit.Abstractions;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Issue 8 item 3: random and mutated calls through the real server path (<see cref="ServerCallHandler{TRequest,TResponse}"/>
/// with <see cref="CiceroServerInterceptor"/>), at an entry point (context ignored, workflow by header) and inside the
/// mesh (context decoded). Only the documented statuses come back; nothing throws, hangs or over-allocates.
/// </summary>
/// <remarks>
/// CI runs 20,000 inputs; <c>CICERO_FUZZ_ITERATIONS=1000000</c> runs the documented long run (docs/reliability.md).
/// A failure names the seed and the case index, which reproduce it.
/// </remarks>
[Collection(SerialReliabilityTests.Name)]
public sealed class ServerCallFuzzTests(ITestOutputHelper output)
{
    /// <summary>The statuses docs/grpc-integration.md documents for the server path (UNKNOWN would mean Cicero threw).</summary>
    private static readonly HashSet<StatusCode> Documented =
    [
        StatusCode.OK,
        StatusCode.InvalidArgument,
        StatusCode.ResourceExhausted,
        StatusCode.Internal,
        StatusCode.Unimplemented,
        StatusCode.DeadlineExceeded,
    ];

    private static readonly TimeSpan Watchdog = TimeSpan.FromSeconds(5);

    [Fact]
    public async Task HandleAsync_RandomAndMutatedCalls_OnlyDocumentedOutcomes()
    {
        var iterations = ReliabilitySettings.FuzzIterations(ciDefault: 20_000);
        var seed = ReliabilitySettings.FuzzSeed;
        var grpcOptions = new GrpcServerOptions { EnableDetailedErrors = true };
        using var entry = new InProcessServer(o => o.Classifier = WorkflowClassifiers.ByHeader(GrpcInputFuzzer.TenantHeader), grpcOptions: grpcOptions);
        using var interior = new InProcessServer(o => o.IsEntryPoint = false, grpcOptions: grpcOptions);
        foreach (var server in new[] { entry, interior })
        {
            // One tenant is out of tokens and may not queue: its calls are dropped at once.
            server.Runtime.CreateRateLimiter(GrpcInputFuzzer.LimitedTenant, new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));
        }

        var entryHandlers = FuzzHandlers.MapAll(entry);
        var interiorHandlers = FuzzHandlers.MapAll(interior);
        var fuzzer = new GrpcInputFuzzer(seed);
        var report = new FuzzReport();
        for (var i = 0; i < iterations; i++)
        {
            var input = fuzzer.Next();
            var handle = (input.Interior ? interiorHandlers : entryHandlers)[(int)input.Method];
            CallOutcome outcome;
            try
            {
                outcome = await InProcessCall.RunAsync(handle, input.Request, Watchdog);
            }
            catch (Exception ex)
            {
                Assert.Fail($"Seed {seed}, {input.Describe()}: {(ex is TimeoutException ? "hang" : "unhandled exception")}: {ex}");
                throw;
            }

            Check(seed, input, outcome);
            report.Count(Label(outcome), outcome.AllocatedBytes);
        }

        report.WriteTo(output, $"Server path fuzz, seed {seed}");
        Assert.Equal(0, entry.Interceptor.InFlight);
        Assert.Equal(0, interior.Interceptor.InFlight);
        Assert.True(report.Outcomes.Keys.Any(k => k.StartsWith("OK", StringComparison.Ordinal)), "No input was served: the fuzzer no longer reaches the handlers.");
        Assert.True(report.Outcomes.Keys.Count(k => !k.StartsWith("OK", StringComparison.Ordinal)) >= 10, "Too few kinds of rejection: the fuzzer no longer reaches the parsers.");
    }

    /// <summary>
    /// The allocation bound per input: a fixed allowance for the call's objects (context, metadata, pipe segments,
    /// status text) plus a small multiple of what the client sent. A length prefix is never trusted for allocation, so
    /// a 5-byte frame claiming 4 GiB stays within it.
    /// </summary>
    internal static long AllocationBudget(InProcessRequest request) => 96 * 1024 + (8L * (request.Body.Length + (2L * request.HeaderBytes)));

    private static void Check(int seed, FuzzCase input, CallOutcome outcome)
    {
        if (outcome.Aborted && outcome.Status is null)
        {
            // The client went away: nobody reads a status, and none is written.
            Assert.True(input.Request.AbortIfPending, $"Seed {seed}, {input.Describe()}: aborted without the client aborting.");
            return;
        }

        Assert.True(outcome.Status is { } status && Documented.Contains(status), $"Seed {seed}, {input.Describe()}: status {outcome.Status} '{outcome.Message}'.");
        if (outcome.HttpStatus != StatusCodes.Status200OK)
        {
            // Only a content type that is not gRPC's is refused at the HTTP level, with a gRPC status for gRPC clients.
            Assert.Equal(StatusCodes.Status415UnsupportedMediaType, outcome.HttpStatus);
            Assert.Equal(StatusCode.Internal, outcome.Status);
            Assert.False(GrpcProtocol.IsGrpcContentType(input.Request.ContentType));
        }

        if (outcome.CompletedSynchronously)
        {
            Assert.True(
                outcome.AllocatedBytes <= AllocationBudget(input.Request),
                $"Seed {seed}, {input.Describe()}: allocated {outcome.AllocatedBytes} bytes, budget {AllocationBudget(input.Request)}.");
        }
    }

    private static string Label(CallOutcome outcome)
    {
        if (outcome.Status is not { } status)
        {
            return "(client went away: no status)";
        }

        var reason = outcome.Trailer(CiceroMetadataKeys.DropReason);
        return status == StatusCode.OK ? "OK" : $"{status}: {(reason is null ? outcome.Message : "dropped, " + reason)}";
    }
}
