// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Context;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Time;
using Grpc.Core;

namespace Cicero.Grpc.Tests.Interceptors;

/// <summary>
/// A hop of a request admitted at its entry is counted by default (refused only above its local fair share while a local
/// resource is congested, which never happens here), and admitted again with
/// <see cref="Configuration.CiceroGrpcOptions.InteriorCalls"/> = <see cref="InteriorAdmission.Full"/>
/// (docs/decisions/0022); a call without a context is held to σ either way.
/// </summary>
public sealed class InteriorAdmissionTests
{
    private const string Caller = "http://10.1.0.9:5000";
    private readonly VirtualTimeProvider _clock = new();

    public InteriorAdmissionTests() => _clock.Advance(TimeSpan.FromHours(1));

    [Fact]
    public async Task InteriorCall_OverTheRate_IsCountedAndServed_WhenInteriorCallsAreCounted()
    {
        using var cicero = Interior(InteriorAdmission.Count);
        var handled = 0;

        for (var i = 0; i < 5; i++)
        {
            await cicero.Interceptor.UnaryServerHandler("ping", CallFromUpstream(cicero), Handler(() => handled++));
        }

        Assert.Equal(5, handled);

        // Counted as arrivals from the caller and as admissions, so the answers to that caller stay measured.
        var model = cicero.Runtime.Model.Get(cicero.Runtime.Registry.Resolve("checkout"));
        Assert.Equal(1, model.CallerCount);
        _clock.Advance(TimeSpan.FromMilliseconds(100));
        cicero.Runtime.RateAdaptation.Step(_clock.GetTimestamp());
        Assert.True(model.ArrivalRate > 0);
        Assert.Equal(model.ArrivalRate, model.AdmittedRate);
        Assert.True(model.GetCallerRate(Caller) > 0);
    }

    [Fact]
    public async Task InteriorCall_OverTheRate_IsCountedAndServed_ByDefault()
    {
        // Decision 0022: over σ but not over a local fair share (no local resource is congested): counted and served.
        using var cicero = Interior(interior: null);
        var handled = 0;

        for (var i = 0; i < 3; i++)
        {
            await cicero.Interceptor.UnaryServerHandler("ping", CallFromUpstream(cicero), Handler(() => handled++));
        }

        Assert.Equal(InteriorAdmission.LocalFairShare, new Configuration.CiceroGrpcOptions().InteriorCalls);
        Assert.Equal(3, handled);
    }

    [Fact]
    public async Task InteriorCall_OverTheRate_IsRefused_WhenInteriorCallsAreAdmittedInFull()
    {
        using var cicero = Interior(InteriorAdmission.Full);
        var handled = 0;

        await cicero.Interceptor.UnaryServerHandler("ping", CallFromUpstream(cicero), Handler(() => handled++));
        var ex = await Assert.ThrowsAsync<RpcException>(
            () => cicero.Interceptor.UnaryServerHandler("ping", CallFromUpstream(cicero), Handler(() => handled++)));

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal("rate_limited", ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.Equal(1, handled);
    }

    [Fact]
    public async Task CallWithoutAContext_IsHeldToTheRate_AtAnInteriorService()
    {
        using var cicero = Interior(InteriorAdmission.Count, classifier: "checkout");
        var handled = 0;

        await cicero.Interceptor.UnaryServerHandler("ping", new TestServerCallContext(), Handler(() => handled++));
        var ex = await Assert.ThrowsAsync<RpcException>(
            () => cicero.Interceptor.UnaryServerHandler("ping", new TestServerCallContext(), Handler(() => handled++)));

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal(1, handled);
    }

    private static UnaryServerMethod<string, string> Handler(Action onCall) => (request, _) =>
    {
        onCall();
        return Task.FromResult(request);
    };

    /// <summary>An interior service; <paramref name="interior"/> <see langword="null"/> keeps the default.</summary>
    private CiceroServices Interior(InteriorAdmission? interior, string classifier = "own")
    {
        var cicero = new CiceroServices(
            o =>
            {
                o.IsEntryPoint = false;
                o.QueueForAdmission = false;
                o.InteriorCalls = interior ?? o.InteriorCalls;
                o.Classifier = WorkflowClassifiers.Fixed(classifier);
            },
            _clock);

        // One token and almost no refill: every call after the first is over the rate.
        cicero.Runtime.Admission.Configure("checkout", new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));
        return cicero;
    }

    private TestServerCallContext CallFromUpstream(CiceroServices cicero)
    {
        var upstream = RequestContext.Start("checkout", _clock, TimeSpan.FromSeconds(3));
        var header = ContextHeader.Encode(cicero.Runtime.Codec, upstream, System.Text.Encoding.ASCII.GetBytes(Caller));
        return new TestServerCallContext(requestHeaders: new Metadata { { CiceroMetadataKeys.Context, header } });
    }
}
