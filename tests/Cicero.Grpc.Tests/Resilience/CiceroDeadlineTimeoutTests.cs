// SPDX-License-Identifier: Apache-2.0

using System.ComponentModel.DataAnnotations;
using Cicero.Context;
using Cicero.Grpc.Resilience;
using Cicero.Time;
using Grpc.Core;
using Polly;
using Polly.Retry;
using Polly.Timeout;

namespace Cicero.Grpc.Tests.Resilience;

public sealed class CiceroDeadlineTimeoutTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);

    private readonly VirtualTimeProvider _clock = new();

    [Fact]
    public async Task Execute_BudgetLeft_TimesOutExactlyWhenItRunsOut()
    {
        var timeouts = new List<TimeSpan>();
        var pipeline = NewBuilder()
            .AddCiceroDeadlineTimeout(new CiceroDeadlineTimeoutStrategyOptions
            {
                OnTimeout = args =>
                {
                    timeouts.Add(args.Timeout);
                    return default;
                },
            })
            .Build();
        using var scope = CiceroContext.Use(RequestContext.Start("checkout", _clock, TimeSpan.FromMilliseconds(200)));
        _clock.Advance(TimeSpan.FromMilliseconds(50));
        var operationToken = CancellationToken.None;

        var execution = pipeline.ExecuteAsync(
            async token =>
            {
                operationToken = token;
                await Task.Delay(Timeout.InfiniteTimeSpan, token);
            },
            CancellationToken.None).AsTask();

        _clock.Advance(TimeSpan.FromMilliseconds(150) - TimeSpan.FromTicks(1));
        Assert.False(operationToken.IsCancellationRequested);
        _clock.Advance(TimeSpan.FromTicks(1));
        Assert.True(operationToken.IsCancellationRequested);
        var exception = await Assert.ThrowsAsync<TimeoutRejectedException>(() => execution.WaitAsync(Bound));
        Assert.Equal(TimeSpan.FromMilliseconds(150), exception.Timeout);
        Assert.Equal([TimeSpan.FromMilliseconds(150)], timeouts);
    }

    [Fact]
    public async Task Execute_BudgetSuffices_ReturnsResult_AndNeverTimesOut()
    {
        var timeouts = 0;
        var pipeline = new ResiliencePipelineBuilder<string> { TimeProvider = _clock }
            .AddCiceroDeadlineTimeout(new CiceroDeadlineTimeoutStrategyOptions
            {
                OnTimeout = _ =>
                {
                    timeouts++;
                    return default;
                },
            })
            .Build();
        using var scope = CiceroContext.Use(RequestContext.Start("checkout", _clock, TimeSpan.FromMilliseconds(200)));
        var operationToken = CancellationToken.None;

        var execution = pipeline.ExecuteAsync(
            async token =>
            {
                operationToken = token;
                await Task.Delay(TimeSpan.FromMilliseconds(120), _clock, token);
                return "done";
            },
            CancellationToken.None).AsTask();
        _clock.Advance(TimeSpan.FromMilliseconds(120));

        Assert.Equal("done", await execution.WaitAsync(Bound));
        _clock.Advance(TimeSpan.FromSeconds(1));
        Assert.False(operationToken.IsCancellationRequested);
        Assert.Equal(0, timeouts);
    }

    [Fact]
    public async Task Execute_BudgetSpent_RejectsAtOnce_WithoutRunningOperation()
    {
        var timeouts = new List<TimeSpan>();
        var pipeline = NewBuilder()
            .AddCiceroDeadlineTimeout(new CiceroDeadlineTimeoutStrategyOptions
            {
                OnTimeout = args =>
                {
                    timeouts.Add(args.Timeout);
                    return default;
                },
            })
            .Build();
        using var scope = CiceroContext.Use(RequestContext.Start("checkout", _clock, TimeSpan.FromMilliseconds(100)));
        _clock.Advance(TimeSpan.FromMilliseconds(100));
        var runs = 0;

        var execution = pipeline.ExecuteAsync(_ =>
        {
            runs++;
            return default;
        });

        Assert.True(execution.IsCompleted);
        var exception = await Assert.ThrowsAsync<TimeoutRejectedException>(async () => await execution);
        Assert.Equal(TimeSpan.Zero, exception.Timeout);
        Assert.Equal(0, runs);
        Assert.Equal([TimeSpan.Zero], timeouts);
    }

    [Fact]
    public async Task Execute_NoContext_NoTimeoutByDefault()
    {
        var pipeline = NewBuilder().AddCiceroDeadlineTimeout().Build();
        using var scope = CiceroContext.Use(null);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var operationToken = CancellationToken.None;

        var execution = pipeline.ExecuteAsync(
            async token =>
            {
                operationToken = token;
                await release.Task;
            },
            CancellationToken.None).AsTask();
        _clock.Advance(TimeSpan.FromDays(2));

        Assert.False(operationToken.IsCancellationRequested);
        release.SetResult();
        await execution.WaitAsync(Bound);
    }

    [Fact]
    public async Task Execute_NoContext_UsesFallbackTimeout()
    {
        var pipeline = NewBuilder()
            .AddCiceroDeadlineTimeout(new CiceroDeadlineTimeoutStrategyOptions { FallbackTimeout = TimeSpan.FromSeconds(2) })
            .Build();
        using var scope = CiceroContext.Use(null);

        var execution = pipeline.ExecuteAsync(
            static async token => await Task.Delay(Timeout.InfiniteTimeSpan, token),
            CancellationToken.None).AsTask();
        _clock.Advance(TimeSpan.FromSeconds(2));

        var exception = await Assert.ThrowsAsync<TimeoutRejectedException>(() => execution.WaitAsync(Bound));
        Assert.Equal(TimeSpan.FromSeconds(2), exception.Timeout);
    }

    [Fact]
    public async Task Execute_ContextWithoutDeadline_UsesFallbackTimeout()
    {
        var pipeline = NewBuilder()
            .AddCiceroDeadlineTimeout(new CiceroDeadlineTimeoutStrategyOptions { FallbackTimeout = TimeSpan.FromSeconds(3) })
            .Build();
        using var scope = CiceroContext.Use(RequestContext.Start("batch", _clock));

        var execution = pipeline.ExecuteAsync(
            static async token => await Task.Delay(Timeout.InfiniteTimeSpan, token),
            CancellationToken.None).AsTask();
        _clock.Advance(TimeSpan.FromSeconds(3));

        var exception = await Assert.ThrowsAsync<TimeoutRejectedException>(() => execution.WaitAsync(Bound));
        Assert.Equal(TimeSpan.FromSeconds(3), exception.Timeout);
    }

    [Fact]
    public async Task Execute_ContextProperty_WinsOverAmbientContext()
    {
        var pipeline = NewBuilder().AddCiceroDeadlineTimeout().Build();
        using var scope = CiceroContext.Use(RequestContext.Start("long", _clock, TimeSpan.FromMinutes(5)));
        var context = ResilienceContextPool.Shared.Get();
        context.Properties.Set(CiceroResilienceKeys.RequestContext, RequestContext.Start("short", _clock, TimeSpan.FromSeconds(1)));
        try
        {
            var execution = pipeline.ExecuteAsync(
                static async (resilienceContext, _) => await Task.Delay(Timeout.InfiniteTimeSpan, resilienceContext.CancellationToken),
                context,
                0).AsTask();
            _clock.Advance(TimeSpan.FromSeconds(1));

            var exception = await Assert.ThrowsAsync<TimeoutRejectedException>(() => execution.WaitAsync(Bound));
            Assert.Equal(TimeSpan.FromSeconds(1), exception.Timeout);
        }
        finally
        {
            ResilienceContextPool.Shared.Return(context);
        }
    }

    [Fact]
    public async Task Execute_CallerCancels_IsNotATimeout()
    {
        var pipeline = NewBuilder().AddCiceroDeadlineTimeout().Build();
        using var scope = CiceroContext.Use(RequestContext.Start("checkout", _clock, TimeSpan.FromSeconds(1)));
        using var cancellation = new CancellationTokenSource();

        var execution = pipeline.ExecuteAsync(
            static async token => await Task.Delay(Timeout.InfiniteTimeSpan, token),
            cancellation.Token).AsTask();
        await cancellation.CancelAsync();

        var exception = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => execution.WaitAsync(Bound));
        Assert.IsNotType<TimeoutRejectedException>(exception);
    }

    [Fact]
    public void AddCiceroDeadlineTimeout_InvalidFallback_Throws()
    {
        var options = new CiceroDeadlineTimeoutStrategyOptions { FallbackTimeout = TimeSpan.FromMilliseconds(1) };

        Assert.Throws<ValidationException>(() => NewBuilder().AddCiceroDeadlineTimeout(options));
    }

    [Fact]
    public void Build_TwiceWithDifferentClocks_Throws()
    {
        var builder = NewBuilder().AddCiceroDeadlineTimeout();
        builder.Build();
        builder.Build();
        builder.TimeProvider = new VirtualTimeProvider();

        Assert.Throws<InvalidOperationException>(() => builder.Build());
    }

    [Fact]
    public async Task Execute_GrpcCallCancelledByTheTimeout_IsATimeout_ThroughTheDocumentedStorefrontPipeline()
    {
        // docs/getting-started.md's storefront: the deadline timeout outside a retry of UNAVAILABLE, around a gRPC call.
        var pipeline = NewBuilder()
            .AddCiceroDeadlineTimeout()
            .AddRetry(new RetryStrategyOptions
            {
                ShouldHandle = new PredicateBuilder().Handle<RpcException>(e => e.StatusCode == StatusCode.Unavailable),
                MaxRetryAttempts = 2,
                Delay = TimeSpan.FromMilliseconds(20),
            })
            .Build();
        using var scope = CiceroContext.Use(RequestContext.Start("page", _clock, TimeSpan.FromMilliseconds(15)));

        var execution = pipeline.ExecuteAsync(static async token => await GrpcDotnetCallAsync(token), CancellationToken.None).AsTask();
        _clock.Advance(TimeSpan.FromMilliseconds(15));

        // Not the RpcException(Cancelled) grpc-dotnet threw: the storefront maps this one to DEADLINE_EXCEEDED.
        var exception = await Assert.ThrowsAsync<TimeoutRejectedException>(() => execution.WaitAsync(Bound));
        Assert.Equal(TimeSpan.FromMilliseconds(15), exception.Timeout);
    }

    [Fact]
    public async Task Execute_CancelledStatusFromTheCallee_PassesThroughUnchanged()
    {
        var pipeline = NewBuilder().AddCiceroDeadlineTimeout().Build();
        using var scope = CiceroContext.Use(RequestContext.Start("page", _clock, TimeSpan.FromSeconds(1)));

        // The callee (or a proxy) answered CANCELLED while the budget lasted: that is what happened, so it is kept.
        var exception = await Assert.ThrowsAsync<RpcException>(async () => await pipeline.ExecuteAsync(
            static _ => throw new RpcException(new Status(StatusCode.Cancelled, "cancelled by the callee")),
            CancellationToken.None));
        Assert.Equal("cancelled by the callee", exception.Status.Detail);
    }

    [Fact]
    public void Options_Defaults()
    {
        var options = new CiceroDeadlineTimeoutStrategyOptions();

        Assert.Equal(CiceroDeadlineTimeoutConstants.DefaultName, options.Name);
        Assert.Null(options.FallbackTimeout);
        Assert.Null(options.OnTimeout);
        Assert.Null(options.RequestContextSelector);
    }

    /// <summary>What a grpc-dotnet unary call does when its token is cancelled (without ThrowOperationCanceledOnCancellation).</summary>
    private static async Task<int> GrpcDotnetCallAsync(CancellationToken token)
    {
        try
        {
            await Task.Delay(Timeout.InfiniteTimeSpan, token);
            return 0;
        }
        catch (OperationCanceledException)
        {
            throw new RpcException(new Status(StatusCode.Cancelled, "Call canceled by the client."));
        }
    }

    private ResiliencePipelineBuilder NewBuilder() => new() { TimeProvider = _clock };
}
