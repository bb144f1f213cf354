// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Context;
using Cicero.Time;

namespace Cicero.Grpc.Tests.Context;

/// <summary>The scope's own rules; the join over real calls is in <c>Integration/ProgressPropagationTests</c>.</summary>
public sealed class ParallelCallsTests
{
    private readonly VirtualTimeProvider _clock = new();

    [Fact]
    public void Begin_WithoutARequest_Throws()
    {
        using var none = CiceroContext.Use(null);

        var error = Assert.Throws<InvalidOperationException>(ParallelCalls.Begin);

        Assert.Contains("CiceroContext.Current", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Dispose_JoinsTheChildrenAsTheirMean_AndLoadAsTheirSum()
    {
        var request = RequestContext.Start("w", _clock);
        using var use = CiceroContext.Use(request);

        var scope = ParallelCalls.Begin();
        Assert.Same(scope, ParallelCalls.Current);
        scope.Add(new ProgressDelta(0.004, 1));
        scope.Add(new ProgressDelta(0.008, 3));
        Assert.Equal(2, scope.Count);
        Assert.Equal(ProgressDelta.Zero, request.Progress.Current);
        scope.Dispose();
        scope.Dispose();

        Assert.Null(ParallelCalls.Current);
        Assert.Equal(0.006, request.Progress.Current.ServiceTime, 12);
        Assert.Equal(4, request.Progress.Current.Load, 12);
    }

    [Fact]
    public void Add_AfterTheScopeEnded_JoinsSequentially_SoNothingIsLost()
    {
        var request = RequestContext.Start("w", _clock);
        using var use = CiceroContext.Use(request);
        var scope = ParallelCalls.Begin();
        scope.Dispose();

        // A straggler that completes after the fan-out was awaited still counts.
        scope.Add(new ProgressDelta(0.5, 2));

        Assert.Equal(new ProgressDelta(0.5, 2), request.Progress.Current);
    }

    [Fact]
    public void NestedScopes_RestoreTheOuterOne_AndBelongToTheirRequest()
    {
        var request = RequestContext.Start("w", _clock);
        var other = RequestContext.Start("w", _clock);
        using var use = CiceroContext.Use(request);

        using var outer = ParallelCalls.Begin();
        var inner = ParallelCalls.Begin();
        Assert.Same(inner, ParallelCalls.Current);
        inner.Dispose();

        Assert.Same(outer, ParallelCalls.Current);
        Assert.True(outer.Belongs(request));
        Assert.False(outer.Belongs(other));
    }
}
