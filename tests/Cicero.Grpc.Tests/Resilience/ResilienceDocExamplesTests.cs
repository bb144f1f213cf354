// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Resilience;
using Cicero.Runtime;
using Cicero.Time;
using Polly;
using Polly.Timeout;

namespace Cicero.Grpc.Tests.Resilience;

/// <summary>The examples of docs/resilience.md, compiled and run so they cannot rot. Keep the two in step.</summary>
public class ResilienceDocExamplesTests
{
    [Fact]
    public async Task Example_AdmissionThenDeadlineTimeout()
    {
        var clock = new VirtualTimeProvider();
        using var runtime = new CiceroRuntime(timeProvider: clock);

        // --- begin example: pipeline
        var pipeline = new ResiliencePipelineBuilder<string> { TimeProvider = runtime.TimeProvider }
            .AddCiceroAdmission(runtime, new CiceroAdmissionStrategyOptions
            {
                OnRejected = args =>
                {
                    Console.WriteLine($"{args.Request?.Workflow} rejected: {args.Reason}");
                    return default;
                },
            })
            .AddCiceroDeadlineTimeout(new CiceroDeadlineTimeoutStrategyOptions
            {
                FallbackTimeout = TimeSpan.FromSeconds(10), // for calls without a deadline
            })
            .Build();

        string stock;
        using (CiceroContext.Use(runtime.StartRequest("checkout", deadline: TimeSpan.FromMilliseconds(300))))
        {
            try
            {
                stock = await pipeline.ExecuteAsync(static async token => await CallInventoryAsync(token), CancellationToken.None);
            }
            catch (ExecutionRejectedException e) when (e is AdmissionRejectedException or TimeoutRejectedException)
            {
                // Dropped by admission (AdmissionRejectedException.Reason says why) or out of budget: degrade.
                stock = "unknown";
            }
        }

        // --- end example
        Assert.Equal("in stock", stock);
    }

    [Fact]
    public async Task Example_ExplicitContextAndCaller()
    {
        var clock = new VirtualTimeProvider();
        using var runtime = new CiceroRuntime(timeProvider: clock);
        var pipeline = new ResiliencePipelineBuilder { TimeProvider = clock }.AddCiceroAdmission(runtime).Build();
        var request = runtime.StartRequest("batch-export");

        // --- begin example: explicit-context
        var context = ResilienceContextPool.Shared.Get(CancellationToken.None);
        context.Properties.Set(CiceroResilienceKeys.RequestContext, request);
        context.Properties.Set(CiceroResilienceKeys.Caller, "reporting-service");
        try
        {
            await pipeline.ExecuteAsync(static async (ctx, _) => await ExportAsync(ctx.CancellationToken), context, 0);
        }
        finally
        {
            ResilienceContextPool.Shared.Return(context);
        }

        // --- end example
    }

    [Fact]
    public async Task Example_RejectUntrackedWork()
    {
        using var runtime = new CiceroRuntime(timeProvider: new VirtualTimeProvider());

        // --- begin example: reject-untracked
        var strict = new ResiliencePipelineBuilder()
            .AddCiceroAdmission(runtime, new CiceroAdmissionStrategyOptions { MissingContext = MissingContextBehavior.Reject })
            .Build();

        // --- end example
        using var scope = CiceroContext.Use(null);
        var exception = await Assert.ThrowsAsync<AdmissionRejectedException>(async () => await strict.ExecuteAsync(static _ => default));
        Assert.Equal(DropReason.Policy, exception.Reason);
    }

    private static ValueTask<string> CallInventoryAsync(CancellationToken token) => ValueTask.FromResult("in stock");

    private static ValueTask ExportAsync(CancellationToken token) => default;
}
