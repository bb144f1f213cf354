// SPDX-License-Identifier: Apache-2.0

using System.ComponentModel.DataAnnotations;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Resilience;
using Cicero.Runtime;
using Cicero.Time;
using Cicero.Workflows;
using Polly;

namespace Cicero.Grpc.Tests.Resilience;

public sealed class AdmissionResilienceStrategyTests : IDisposable
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);

    private readonly VirtualTimeProvider _clock = new();
    private readonly AdmissionController _controller;

    public AdmissionResilienceStrategyTests()
    {
        _controller = new AdmissionController(new WorkflowRegistry(), NeverDropPolicy.Instance, null, _clock);
    }

    public void Dispose() => _controller.Dispose();

    [Fact]
    public async Task Execute_Admitted_RunsOperation()
    {
        var pipeline = new ResiliencePipelineBuilder<int>().AddCiceroAdmission(_controller).Build();
        using var scope = CiceroContext.Use(RequestContext.Start("checkout", _clock));

        var result = await pipeline.ExecuteAsync(static _ => ValueTask.FromResult(42));

        Assert.Equal(42, result);
    }

    [Fact]
    public async Task Execute_Rejected_ThrowsAdmissionRejectedWithReason_WithoutRunningOperation()
    {
        _controller.Configure("checkout", new RateLimiterProperties(1, 1, 0));
        var rejections = new List<OnAdmissionRejectedArguments>();
        var pipeline = new ResiliencePipelineBuilder()
            .AddCiceroAdmission(_controller, new CiceroAdmissionStrategyOptions
            {
                OnRejected = args =>
                {
                    rejections.Add(args);
                    return default;
                },
            })
            .Build();
        var request = RequestContext.Start("checkout", _clock);
        using var scope = CiceroContext.Use(request);
        var runs = 0;

        await pipeline.ExecuteAsync(_ =>
        {
            runs++;
            return default;
        });
        var exception = await Assert.ThrowsAsync<AdmissionRejectedException>(async () => await pipeline.ExecuteAsync(_ =>
        {
            runs++;
            return default;
        }));

        Assert.Equal(1, runs);
        Assert.IsAssignableFrom<ExecutionRejectedException>(exception);
        Assert.Equal(DropReason.RateLimited, exception.Reason);
        Assert.Equal(new WorkflowId("checkout"), exception.Workflow);
        var rejection = Assert.Single(rejections);
        Assert.Equal(DropReason.RateLimited, rejection.Reason);
        Assert.Same(request, rejection.Request);
    }

    [Fact]
    public async Task ExecuteOutcome_Rejected_ReturnsTheExceptionAsOutcome()
    {
        _controller.Configure("batch", new RateLimiterProperties(0, 1, 0));
        var pipeline = new ResiliencePipelineBuilder().AddCiceroAdmission(_controller).Build();
        var context = ResilienceContextPool.Shared.Get();
        context.Properties.Set(CiceroResilienceKeys.RequestContext, RequestContext.Start("batch", _clock));
        try
        {
            // The first request takes the one burst token; the bucket never refills at rate 0.
            await pipeline.ExecuteOutcomeAsync(static (_, _) => Outcome.FromResultAsValueTask(1), context, 0);
            var outcome = await pipeline.ExecuteOutcomeAsync(static (_, _) => Outcome.FromResultAsValueTask(2), context, 0);

            Assert.Equal(DropReason.RateLimited, Assert.IsType<AdmissionRejectedException>(outcome.Exception).Reason);
        }
        finally
        {
            ResilienceContextPool.Shared.Return(context);
        }
    }

    [Fact]
    public async Task Execute_DeadlineInfeasible_RejectsWithThatReason()
    {
        using var controller = new AdmissionController(new WorkflowRegistry(), null, null, _clock);
        var pipeline = new ResiliencePipelineBuilder().AddCiceroAdmission(controller).Build();
        var request = RequestContext.Start("search", _clock, TimeSpan.FromMilliseconds(100));
        _clock.Advance(TimeSpan.FromMilliseconds(150));
        using var scope = CiceroContext.Use(request);

        var exception = await Assert.ThrowsAsync<AdmissionRejectedException>(async () => await pipeline.ExecuteAsync(static _ => default));

        Assert.Equal(DropReason.DeadlineInfeasible, exception.Reason);
    }

    [Fact]
    public async Task Execute_Queued_RunsOnceTheClockGivesAToken()
    {
        _controller.Configure("reports", new RateLimiterProperties(10, 1, 4));
        var pipeline = new ResiliencePipelineBuilder().AddCiceroAdmission(_controller).Build();
        using var scope = CiceroContext.Use(RequestContext.Start("reports", _clock));
        var runs = 0;
        await pipeline.ExecuteAsync(_ =>
        {
            Interlocked.Increment(ref runs);
            return default;
        });

        var queued = pipeline.ExecuteAsync(_ =>
        {
            Interlocked.Increment(ref runs);
            return default;
        }).AsTask();

        Assert.False(queued.IsCompleted);
        Assert.Equal(1, _controller.GetQueueLength("reports"));
        _clock.Advance(TimeSpan.FromMilliseconds(100));
        await queued.WaitAsync(Bound);
        Assert.Equal(2, Volatile.Read(ref runs));
    }

    [Fact]
    public async Task Execute_CancelledWhileQueued_ThrowsOperationCanceled_WithoutRunningOperation()
    {
        _controller.Configure("reports", new RateLimiterProperties(1, 1, 4));
        var pipeline = new ResiliencePipelineBuilder().AddCiceroAdmission(_controller).Build();
        using var scope = CiceroContext.Use(RequestContext.Start("reports", _clock));
        await pipeline.ExecuteAsync(static _ => default);
        using var cancellation = new CancellationTokenSource();
        var runs = 0;

        var queued = pipeline.ExecuteAsync(
            _ =>
            {
                runs++;
                return default;
            },
            cancellation.Token).AsTask();
        Assert.Equal(1, _controller.GetQueueLength("reports"));
        await cancellation.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => queued.WaitAsync(Bound));
        Assert.Equal(0, runs);
        Assert.Equal(0, _controller.GetQueueLength("reports"));
    }

    [Fact]
    public async Task Execute_NoContext_PassesThroughByDefault()
    {
        var pipeline = new ResiliencePipelineBuilder<string>().AddCiceroAdmission(_controller).Build();
        using var scope = CiceroContext.Use(null);

        Assert.Equal("ran", await pipeline.ExecuteAsync(static _ => ValueTask.FromResult("ran")));
    }

    [Fact]
    public async Task Execute_NoContextAndReject_RejectsWithPolicyReason_WithoutRunningOperation()
    {
        var callbacks = 0;
        var pipeline = new ResiliencePipelineBuilder()
            .AddCiceroAdmission(_controller, new CiceroAdmissionStrategyOptions
            {
                MissingContext = MissingContextBehavior.Reject,
                OnRejected = args =>
                {
                    Assert.Null(args.Request);
                    callbacks++;
                    return default;
                },
            })
            .Build();
        using var scope = CiceroContext.Use(null);
        var runs = 0;

        var exception = await Assert.ThrowsAsync<AdmissionRejectedException>(async () => await pipeline.ExecuteAsync(_ =>
        {
            runs++;
            return default;
        }));

        Assert.Equal(0, runs);
        Assert.Equal(1, callbacks);
        Assert.Equal(DropReason.Policy, exception.Reason);
        Assert.True(exception.Workflow.IsEmpty);
    }

    [Fact]
    public async Task Execute_ContextProperty_WinsOverAmbientContext()
    {
        _controller.Configure("blocked", new RateLimiterProperties(0, 1, 0));
        Assert.True(_controller.TryAdmit(RequestContext.Start("blocked", _clock)).IsAdmitted);
        var pipeline = new ResiliencePipelineBuilder().AddCiceroAdmission(_controller).Build();
        using var scope = CiceroContext.Use(RequestContext.Start("open", _clock));
        var context = ResilienceContextPool.Shared.Get();
        context.Properties.Set(CiceroResilienceKeys.RequestContext, RequestContext.Start("blocked", _clock));
        try
        {
            var exception = await Assert.ThrowsAsync<AdmissionRejectedException>(
                async () => await pipeline.ExecuteAsync(static (_, _) => default, context, 0));

            Assert.Equal(new WorkflowId("blocked"), exception.Workflow);
        }
        finally
        {
            ResilienceContextPool.Shared.Return(context);
        }
    }

    [Fact]
    public async Task Execute_Selector_DecidesAlone()
    {
        var selected = RequestContext.Start("fallback", _clock);
        _controller.Configure("fallback", new RateLimiterProperties(0, 1, 0));
        Assert.True(_controller.TryAdmit(selected).IsAdmitted);
        var pipeline = new ResiliencePipelineBuilder()
            .AddCiceroAdmission(_controller, new CiceroAdmissionStrategyOptions { RequestContextSelector = _ => selected })
            .Build();
        using var scope = CiceroContext.Use(RequestContext.Start("open", _clock));

        var exception = await Assert.ThrowsAsync<AdmissionRejectedException>(async () => await pipeline.ExecuteAsync(static _ => default));

        Assert.Equal(new WorkflowId("fallback"), exception.Workflow);
    }

    [Fact]
    public async Task AddCiceroAdmission_Runtime_UsesItsController()
    {
        using var runtime = new CiceroRuntime(timeProvider: _clock);
        runtime.Admission.Configure("orders", new RateLimiterProperties(0, 1, 0));
        var pipeline = new ResiliencePipelineBuilder().AddCiceroAdmission(runtime).Build();
        using var scope = CiceroContext.Use(runtime.StartRequest("orders"));

        await pipeline.ExecuteAsync(static _ => default);
        var exception = await Assert.ThrowsAsync<AdmissionRejectedException>(async () => await pipeline.ExecuteAsync(static _ => default));

        Assert.Equal(DropReason.RateLimited, exception.Reason);
    }

    [Fact]
    public async Task Execute_CallerProperty_ReachesTheLocalModel()
    {
        using var runtime = new CiceroRuntime(timeProvider: _clock);
        var pipeline = new ResiliencePipelineBuilder().AddCiceroAdmission(runtime).Build();
        using var scope = CiceroContext.Use(runtime.StartRequest("orders"));

        foreach (var caller in new[] { "frontend", "mobile-bff" })
        {
            var context = ResilienceContextPool.Shared.Get();
            context.Properties.Set(CiceroResilienceKeys.Caller, caller);
            await pipeline.ExecuteAsync(static (_, _) => default, context, 0);
            ResilienceContextPool.Shared.Return(context);
        }

        Assert.Equal(2, runtime.Model.Get("orders").CallerCount);
    }

    [Fact]
    public void AddCiceroAdmission_InvalidOptions_Throws()
    {
        var options = new CiceroAdmissionStrategyOptions { MissingContext = (MissingContextBehavior)7 };

        Assert.Throws<ValidationException>(() => new ResiliencePipelineBuilder().AddCiceroAdmission(_controller, options));
        Assert.Throws<ArgumentNullException>(() => new ResiliencePipelineBuilder().AddCiceroAdmission((AdmissionController)null!));
    }

    [Fact]
    public async Task Execute_AdmittedAtOnce_AllocatesNothing()
    {
        var pipeline = new ResiliencePipelineBuilder().AddCiceroAdmission(_controller).Build();
        var request = RequestContext.Start("hot", _clock);
        using var scope = CiceroContext.Use(request);
        for (var i = 0; i < 100; i++)
        {
            await pipeline.ExecuteAsync(static _ => default);
        }

        // The runtime itself allocates a few KB now and then (tiering; once 3,680 bytes in a CI run), so the least of
        // three rounds is judged: one object per call would show in every round, 480,000 bytes each.
        var least = long.MaxValue;
        for (var round = 0; round < 3; round++)
        {
            var before = GC.GetAllocatedBytesForCurrentThread();
            for (var i = 0; i < 20_000; i++)
            {
                var execution = pipeline.ExecuteAsync(static _ => default);
                // Completed synchronously, so awaiting it neither suspends nor leaves this thread.
                Assert.True(execution.IsCompletedSuccessfully);
                await execution;
            }

            least = Math.Min(least, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        Assert.InRange(least, 0, 1_024);
    }

    [Fact]
    public void Options_Defaults()
    {
        var options = new CiceroAdmissionStrategyOptions();

        Assert.Equal(CiceroAdmissionConstants.DefaultName, options.Name);
        Assert.Equal(MissingContextBehavior.PassThrough, options.MissingContext);
        Assert.Null(options.OnRejected);
        Assert.Null(options.RequestContextSelector);
    }
}
