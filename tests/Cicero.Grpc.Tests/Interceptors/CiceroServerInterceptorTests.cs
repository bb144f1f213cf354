// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Context;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Runtime;
using Cicero.Time;
using Grpc.Core;

namespace Cicero.Grpc.Tests.Interceptors;

/// <summary>
/// The server interceptor's paths, called the way grpc-dotnet calls a global interceptor, with a fake
/// <see cref="ServerCallContext"/>: the synchronous fast path (handler already done) and the awaiting path (handler
/// still running) both admit, make the context ambient, write the result trailer, and turn drops into statuses.
/// </summary>
public sealed class CiceroServerInterceptorTests : IDisposable
{
    private readonly VirtualTimeProvider _clock = new();
    private readonly CiceroServices _cicero;

    public CiceroServerInterceptorTests()
    {
        _clock.Advance(TimeSpan.FromHours(1));
        _cicero = new CiceroServices(o => o.Classifier = WorkflowClassifiers.Fixed("tenant-a"), _clock);
    }

    private CiceroRuntime Runtime => _cicero.Runtime;

    public void Dispose() => _cicero.Dispose();

    [Fact]
    public async Task Unary_HandlerDoneAtOnce_SeesContextAndGetsTrailer_AndContextDoesNotLeakToCaller()
    {
        var call = new TestServerCallContext();
        RequestContext? seen = null;

        var response = _cicero.Interceptor.UnaryServerHandler("ping", call, (request, _) =>
        {
            seen = CiceroContext.Current;
            return Task.FromResult(request + "!");
        });

        Assert.True(response.IsCompletedSuccessfully);
        Assert.Null(CiceroContext.Current);
        Assert.Equal("ping!", await response);
        Assert.Equal("tenant-a", seen?.Workflow.Value);
        Assert.True(CiceroTrailers.TryRead(call.ResponseTrailers, out var result));
        Assert.Equal(0, _cicero.Interceptor.InFlight);

        // An entry point's caller is not trusted: it learns nothing of the internal address.
        Assert.Equal(string.Empty, result.Instance);
    }

    [Fact]
    public async Task Unary_HandlerStillRunning_KeepsContextAcrossItsAwaits_AndWritesTrailerWhenItEnds()
    {
        var call = new TestServerCallContext();
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        RequestContext? afterAwait = null;

        var response = _cicero.Interceptor.UnaryServerHandler("ping", call, async (request, _) =>
        {
            await release.Task;
            afterAwait = CiceroContext.Current;
            afterAwait!.Progress.AddLocalWork(0.25, 1);
            return request;
        });

        Assert.False(response.IsCompleted);
        Assert.Equal(1, _cicero.Interceptor.InFlight);
        Assert.False(CiceroTrailers.TryRead(call.ResponseTrailers, out _));
        release.SetResult();
        Assert.Equal("ping", await response);
        Assert.Equal("tenant-a", afterAwait?.Workflow.Value);
        Assert.True(CiceroTrailers.TryReadProgress(call.ResponseTrailers, out var progress));
        Assert.Equal(new ProgressDelta(0.25, 1), progress);
        Assert.Equal(0, _cicero.Interceptor.InFlight);
    }

    [Fact]
    public async Task Unary_HandlerDropsSynchronously_IsResourceExhaustedWithReason()
    {
        var call = new TestServerCallContext();

        var ex = await Assert.ThrowsAsync<RpcException>(() => _cicero.Interceptor.UnaryServerHandler<string, string>(
            "ping", call, (_, _) => throw new RequestDroppedException(DropReason.QueueFull, "disk")));

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal("queue_full", ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.Contains("disk", ex.Status.Detail, StringComparison.Ordinal);
        Assert.Equal(0, _cicero.Interceptor.InFlight);
        Assert.Null(CiceroContext.Current);
    }

    [Fact]
    public async Task Unary_HandlerDropsAfterAwaiting_ForTime_IsDeadlineExceededWithReason()
    {
        var call = new TestServerCallContext();

        var ex = await Assert.ThrowsAsync<RpcException>(() => _cicero.Interceptor.UnaryServerHandler<string, string>("ping", call, async (_, _) =>
        {
            await Task.Yield();
            throw new RequestDroppedException(DropReason.DeadlineInfeasible);
        }));

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.Equal("deadline_infeasible", ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.Equal(0, _cicero.Interceptor.InFlight);
    }

    [Fact]
    public async Task Unary_HandlerFails_EndsTheCallAndRethrows()
    {
        var call = new TestServerCallContext();

        await Assert.ThrowsAsync<InvalidOperationException>(() => _cicero.Interceptor.UnaryServerHandler<string, string>(
            "ping", call, (_, _) => throw new InvalidOperationException("boom")));

        Assert.Equal(0, _cicero.Interceptor.InFlight);
        Assert.Null(CiceroContext.Current);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Unary_DownstreamCallDropped_IsThisServicesDownstreamDropped_WithoutTheDownstreamsTrailers(bool afterAwait)
    {
        var call = new TestServerCallContext();
        var downstream = new RpcException(
            new Status(StatusCode.ResourceExhausted, "Request dropped by Cicero at leaf: rate_limited."),
            new Metadata { { CiceroMetadataKeys.DropReason, "rate_limited" }, { "x-leaf-internal", "10.0.0.7" } });

        var ex = await Assert.ThrowsAsync<RpcException>(() => _cicero.Interceptor.UnaryServerHandler<string, string>("ping", call, async (_, _) =>
        {
            if (afterAwait)
            {
                await Task.Yield();
            }

            throw downstream;
        }));

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal("downstream_dropped", ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.Contains("rate_limited", ex.Status.Detail, StringComparison.Ordinal);
        Assert.Null(ex.Trailers.Get("x-leaf-internal"));
        Assert.True(CiceroTrailers.TryRead(call.ResponseTrailers, out _));
        Assert.Equal(0, _cicero.Interceptor.InFlight);
    }

    [Fact]
    public async Task Unary_OtherRpcExceptionsOfTheHandler_PassThroughAsThrown()
    {
        var call = new TestServerCallContext();
        var notFound = new RpcException(new Status(StatusCode.NotFound, "no such key"));

        var ex = await Assert.ThrowsAsync<RpcException>(() => _cicero.Interceptor.UnaryServerHandler<string, string>(
            "ping", call, (_, _) => throw notFound));

        Assert.Same(notFound, ex);
    }

    [Fact]
    public async Task EntryPoint_RecordsWhatItsCallersGot_ButNotTheApplicationsOwnErrors()
    {
        var interceptor = _cicero.Interceptor;

        // Two results delivered, on the synchronous and the awaiting path.
        await interceptor.UnaryServerHandler("a", new TestServerCallContext(), (string r, ServerCallContext _) => Task.FromResult(r));
        await interceptor.UnaryServerHandler("a", new TestServerCallContext(), async (string r, ServerCallContext _) =>
        {
            await Task.Yield();
            return r;
        });

        // Three failures of the system to serve in time: a downstream's deadline, a downstream's drop, and a result
        // the caller had stopped waiting for.
        var deadline = new RpcException(new Status(StatusCode.DeadlineExceeded, "downstream deadline"));
        await Assert.ThrowsAsync<RpcException>(() => interceptor.UnaryServerHandler<string, string>("a", new TestServerCallContext(), (_, _) => throw deadline));
        var dropped = new RpcException(new Status(StatusCode.ResourceExhausted, "dropped"), new Metadata { { CiceroMetadataKeys.DropReason, "rate_limited" } });
        await Assert.ThrowsAsync<RpcException>(() => interceptor.UnaryServerHandler<string, string>("a", new TestServerCallContext(), async (_, _) =>
        {
            await Task.Yield();
            throw dropped;
        }));
        using var gone = new CancellationTokenSource();
        await interceptor.UnaryServerHandler("a", new TestServerCallContext(cancellationToken: gone.Token), async (string r, ServerCallContext _) =>
        {
            await gone.CancelAsync();
            return r;
        });

        // The application's own errors say nothing of load, nor does a dependency down or a quota without Cicero's trailer.
        await Assert.ThrowsAsync<RpcException>(() => interceptor.UnaryServerHandler<string, string>(
            "a", new TestServerCallContext(), (_, _) => throw new RpcException(new Status(StatusCode.NotFound, "no such key"))));
        await Assert.ThrowsAsync<RpcException>(() => interceptor.UnaryServerHandler<string, string>(
            "a", new TestServerCallContext(), (_, _) => throw new RpcException(new Status(StatusCode.Unavailable, "dependency down"))));
        await Assert.ThrowsAsync<RpcException>(() => interceptor.UnaryServerHandler<string, string>(
            "a", new TestServerCallContext(), (_, _) => throw new RpcException(new Status(StatusCode.ResourceExhausted, "quota"))));
        await Assert.ThrowsAsync<InvalidOperationException>(() => interceptor.UnaryServerHandler<string, string>(
            "a", new TestServerCallContext(), (_, _) => throw new InvalidOperationException("boom")));

        Assert.Equal((2, 3), CloseIntervalAndCountOutcomes(Runtime, "tenant-a"));
    }

    [Fact]
    public async Task ResponseStreams_RecordNoOutcome_TheirCallersUsuallyEndThemByLeaving()
    {
        var interceptor = _cicero.Interceptor;
        using var gone = new CancellationTokenSource();

        await Assert.ThrowsAsync<OperationCanceledException>(() => interceptor.ServerStreamingServerHandler(
            "a", new ListWriter<string>(), new TestServerCallContext(cancellationToken: gone.Token), async (string r, IServerStreamWriter<string> writer, ServerCallContext _) =>
            {
                await writer.WriteAsync(r);
                await gone.CancelAsync();
                throw new OperationCanceledException(gone.Token);
            }));
        await interceptor.ServerStreamingServerHandler("a", new ListWriter<string>(), new TestServerCallContext(), (string r, IServerStreamWriter<string> writer, ServerCallContext _) => writer.WriteAsync(r));
        Assert.Equal((0, 0), CloseIntervalAndCountOutcomes(Runtime, "tenant-a"));
    }

    [Fact]
    public async Task Interior_RecordsNoCallersOutcome_OnlyTheEntryPointDoes()
    {
        using var interior = new CiceroServices(o => o.IsEntryPoint = false, _clock);
        var upstream = RequestContext.Create("t", _clock.GetTimestamp(), TimeSpan.FromSeconds(3), ProgressDelta.Zero, ProgressDelta.Zero, default);
        var header = ContextHeader.Encode(interior.Runtime.Codec, upstream, "http://10.1.0.9:5000"u8);

        await interior.Interceptor.UnaryServerHandler("a", new TestServerCallContext(requestHeaders: new Metadata { { CiceroMetadataKeys.Context, header } }), (string r, ServerCallContext _) => Task.FromResult(r));
        await Assert.ThrowsAsync<RpcException>(() => interior.Interceptor.UnaryServerHandler<string, string>(
            "a", new TestServerCallContext(requestHeaders: new Metadata { { CiceroMetadataKeys.Context, header } }), (_, _) => throw new RpcException(new Status(StatusCode.DeadlineExceeded, "late"))));
        Assert.Equal((0, 0), CloseIntervalAndCountOutcomes(interior.Runtime, "t"));
    }

    [Fact]
    public async Task Admission_RateLimited_IsResourceExhausted_BeforeAnyWork()
    {
        using var cicero = new CiceroServices(o => { o.Classifier = WorkflowClassifiers.Fixed("t"); o.QueueForAdmission = false; }, _clock);
        cicero.Runtime.Admission.Configure("t", new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));
        var handled = 0;
        UnaryServerMethod<string, string> handler = (request, _) =>
        {
            handled++;
            return Task.FromResult(request);
        };

        Assert.Equal("a", await cicero.Interceptor.UnaryServerHandler("a", new TestServerCallContext(), handler));
        var call = new TestServerCallContext();
        var ex = await Assert.ThrowsAsync<RpcException>(() => cicero.Interceptor.UnaryServerHandler("b", call, handler));

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal("rate_limited", ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.Contains("under-test", ex.Status.Detail, StringComparison.Ordinal);
        Assert.Empty(call.ResponseTrailers);
        Assert.Equal(1, handled);
    }

    [Fact]
    public async Task Admission_Queued_WaitsForAToken_ThenRunsTheHandlerInTheContext()
    {
        using var cicero = new CiceroServices(o => o.Classifier = WorkflowClassifiers.Fixed("t"), _clock);
        cicero.Runtime.Admission.Configure("t", new RateLimiterProperties(Rate: 10, Burst: 1, QueueLimit: 4));
        RequestContext? seen = null;
        UnaryServerMethod<string, string> handler = (request, _) =>
        {
            seen = CiceroContext.Current;
            return Task.FromResult(request);
        };

        Assert.Equal("a", await cicero.Interceptor.UnaryServerHandler("a", new TestServerCallContext(), handler));
        seen = null;
        var call = new TestServerCallContext();
        var queued = cicero.Interceptor.UnaryServerHandler("b", call, handler);

        Assert.False(queued.IsCompleted);
        Assert.Equal(0, cicero.Interceptor.InFlight);
        _clock.Advance(TimeSpan.FromMilliseconds(100));

        Assert.Equal("b", await queued.WaitAsync(TimeSpan.FromSeconds(30), TimeProvider.System));
        Assert.Equal("t", seen?.Workflow.Value);
        Assert.True(CiceroTrailers.TryRead(call.ResponseTrailers, out _));
        Assert.Equal(0, cicero.Interceptor.InFlight);
    }

    [Theory]
    [InlineData("/grpc.health.v1.Health/Check")]
    [InlineData("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo")]
    [InlineData("/cicero.v1.RateExchange/GetAdmissionRates")]
    [InlineData("/ops.Admin/Drain")]
    public async Task ExemptServices_PassWithoutContextAdmissionOrTrailer_EvenWhenEverythingElseIsRejected(string method)
    {
        using var cicero = new CiceroServices(
            o =>
            {
                o.Classifier = WorkflowClassifiers.Fixed("t");
                o.QueueForAdmission = false;
                o.ExemptServices.Add("ops.Admin");
            },
            _clock);
        cicero.Runtime.Admission.Configure("t", new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));
        await cicero.Interceptor.UnaryServerHandler("a", new TestServerCallContext(), (string r, ServerCallContext _) => Task.FromResult(r));
        await Assert.ThrowsAsync<RpcException>(() => cicero.Interceptor.UnaryServerHandler("a", new TestServerCallContext(), (string r, ServerCallContext _) => Task.FromResult(r)));

        var workflows = cicero.Runtime.Registry.Count;

        // Even a header that would be INVALID_ARGUMENT elsewhere is not looked at.
        var call = new TestServerCallContext(method, requestHeaders: new Metadata { { CiceroMetadataKeys.Context, new byte[] { 0xFF } } });
        var sawContext = true;
        for (var i = 0; i < 3; i++)
        {
            await cicero.Interceptor.UnaryServerHandler("ping", call, (string r, ServerCallContext _) =>
            {
                sawContext = CiceroContext.Current is not null;
                return Task.FromResult(r);
            });
        }

        Assert.False(sawContext);
        Assert.Empty(call.ResponseTrailers);
        Assert.Equal(workflows, cicero.Runtime.Registry.Count);
    }

    [Fact]
    public async Task Interior_ReadsTheCallersContextAndId_FromBinaryMetadata()
    {
        using var cicero = new CiceroServices(o => o.IsEntryPoint = false, _clock);
        var upstream = RequestContext.Create("checkout", _clock.GetTimestamp(), TimeSpan.FromSeconds(3), new ProgressDelta(0.5, 2), ProgressDelta.Zero, default);
        upstream.Progress.AddLocalWork(0.25, 1);
        var header = ContextHeader.Encode(cicero.Runtime.Codec, upstream, "http://10.1.0.9:5000"u8);
        var call = new TestServerCallContext(requestHeaders: new Metadata { { CiceroMetadataKeys.Context, header } });
        RequestContext? seen = null;

        await cicero.Interceptor.UnaryServerHandler("ping", call, (string r, ServerCallContext _) =>
        {
            seen = CiceroContext.Current;
            return Task.FromResult(r);
        });

        Assert.NotNull(seen);
        Assert.Equal("checkout", seen.Workflow.Value);
        Assert.Equal(TimeSpan.FromSeconds(3), seen.Deadline);
        Assert.Equal(new ProgressDelta(0.75, 3), seen.BeforeArrival);
        Assert.Equal(1, cicero.Runtime.Model.Get(cicero.Runtime.Registry.Resolve("checkout")).CallerCount);

        // Inside the mesh the caller learns which instance served it (C3's feedback and the amplification need it).
        Assert.True(CiceroTrailers.TryRead(call.ResponseTrailers, out var result));
        Assert.Equal(CiceroServices.InstanceId, result.Instance);
    }

    [Fact]
    public async Task Interior_WithoutAHeader_StartsARequestOfItsOwn()
    {
        using var cicero = new CiceroServices(o => { o.IsEntryPoint = false; o.Classifier = WorkflowClassifiers.Fixed("own"); }, _clock);
        RequestContext? seen = null;

        await cicero.Interceptor.UnaryServerHandler("ping", new TestServerCallContext(deadline: _clock.GetUtcNow().UtcDateTime.AddSeconds(2)), (string r, ServerCallContext _) =>
        {
            seen = CiceroContext.Current;
            return Task.FromResult(r);
        });

        Assert.Equal("own", seen?.Workflow.Value);
        Assert.Equal(TimeSpan.FromSeconds(2), seen?.Deadline);
    }

    [Fact]
    public async Task MalformedHeader_FromMetadata_IsInvalidArgument_NamingTheProblem()
    {
        using var cicero = new CiceroServices(o => { o.IsEntryPoint = false; o.MaxContextHeaderBytes = 100; }, _clock);
        var context = cicero.Runtime.Codec.Encode(RequestContext.Start("t", _clock));

        var garbage = await Invalid(cicero, new Metadata { { CiceroMetadataKeys.Context, new byte[] { 0x01, 0xFF, 0x00, 0x13 } } });
        var overLimit = await Invalid(cicero, new Metadata { { CiceroMetadataKeys.Context, new byte[300] } });
        var overBuffer = await Invalid(cicero, new Metadata { { CiceroMetadataKeys.Context, new byte[4096] } });
        var spacedCaller = await Invalid(cicero, new Metadata { { CiceroMetadataKeys.Context, [.. context, .. "bad caller"u8] } });

        Assert.Contains("malformed", garbage, StringComparison.Ordinal);
        Assert.Contains("300 bytes; the limit is 100", overLimit, StringComparison.Ordinal);
        Assert.Contains("longer than the limit", overBuffer, StringComparison.Ordinal);
        Assert.Contains("caller id", spacedCaller, StringComparison.Ordinal);
        Assert.Equal(0, cicero.Interceptor.InFlight);
    }

    [Theory]
    [InlineData("not base64!")]
    [InlineData("AQ=x")]
    [InlineData("é")]
    public async Task MalformedHeader_FromTheHttpRequest_IsInvalidArgument(string value)
    {
        using var cicero = new CiceroServices(o => o.IsEntryPoint = false, _clock);
        var call = new TestServerCallContext().WithHttpHeader(CiceroMetadataKeys.Context, value);

        var ex = await Assert.ThrowsAsync<RpcException>(() => cicero.Interceptor.UnaryServerHandler("x", call, (string r, ServerCallContext _) => Task.FromResult(r)));

        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.Contains(CiceroMetadataKeys.Context, ex.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task HeaderFromTheHttpRequest_TwoValuesAreInvalid_OneUnpaddedValueIsRead()
    {
        using var cicero = new CiceroServices(o => o.IsEntryPoint = false, _clock);
        var text = Convert.ToBase64String(ContextHeader.Encode(cicero.Runtime.Codec, RequestContext.Start("from-http", _clock), "up-1"u8)).TrimEnd('=');
        var twice = new TestServerCallContext().WithHttpHeader(CiceroMetadataKeys.Context, text, text);
        var once = new TestServerCallContext().WithHttpHeader(CiceroMetadataKeys.Context, text);
        RequestContext? seen = null;

        var ex = await Assert.ThrowsAsync<RpcException>(() => cicero.Interceptor.UnaryServerHandler("x", twice, (string r, ServerCallContext _) => Task.FromResult(r)));
        await cicero.Interceptor.UnaryServerHandler("x", once, (string r, ServerCallContext _) =>
        {
            seen = CiceroContext.Current;
            return Task.FromResult(r);
        });

        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.Equal("from-http", seen?.Workflow.Value);
    }

    [Theory]
    [InlineData(false, false, false)]
    [InlineData(true, false, true)]
    [InlineData(false, true, true)]
    public async Task EntryPoint_UntrustedCaller_GetsNoInstanceId_AndItsContextIsIgnored(bool expose, bool trustedByPredicate, bool expectInstance)
    {
        using var cicero = new CiceroServices(
            o =>
            {
                o.Classifier = WorkflowClassifiers.Fixed("classified");
                o.ExposeInstanceIdToUntrustedCallers = expose;
                o.IsTrustedCaller = c => trustedByPredicate && c.RequestHeaders.GetValue("x-mesh") == "yes";
            },
            _clock);
        var forged = ContextHeader.Encode(cicero.Runtime.Codec, RequestContext.Start("forged", _clock, TimeSpan.FromMinutes(10)), "http://trusted:1"u8);
        var call = new TestServerCallContext(requestHeaders: new Metadata { { CiceroMetadataKeys.Context, forged }, { "x-mesh", "yes" } });
        RequestContext? seen = null;

        await cicero.Interceptor.UnaryServerHandler("x", call, (string r, ServerCallContext _) =>
        {
            seen = CiceroContext.Current;
            return Task.FromResult(r);
        });

        Assert.True(CiceroTrailers.TryRead(call.ResponseTrailers, out var result));
        Assert.Equal(expectInstance ? CiceroServices.InstanceId : string.Empty, result.Instance);
        Assert.Equal(trustedByPredicate ? "forged" : "classified", seen?.Workflow.Value);
    }

    [Fact]
    public async Task DeadlinePassedOnArrival_IsDeadlineExceeded_DeadlineExpired_AndDoesNoWork()
    {
        var handled = 0;
        var call = new TestServerCallContext(deadline: _clock.GetUtcNow().UtcDateTime);

        var ex = await Assert.ThrowsAsync<RpcException>(() => _cicero.Interceptor.UnaryServerHandler("x", call, (string r, ServerCallContext _) =>
        {
            handled++;
            return Task.FromResult(r);
        }));

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.Equal("deadline_expired", ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.Equal(0, handled);
        Assert.Equal(0, _cicero.Interceptor.InFlight);
    }

    [Fact]
    public async Task DeadlineSelector_SetsTheDeadlineOfNewRequests()
    {
        using var cicero = new CiceroServices(
            o =>
            {
                o.Classifier = WorkflowClassifiers.Fixed("slo");
                o.DeadlineSelector = (_, workflow) => workflow.Value == "slo" ? TimeSpan.FromMilliseconds(750) : null;
            },
            _clock);
        RequestContext? seen = null;

        await cicero.Interceptor.UnaryServerHandler("x", new TestServerCallContext(deadline: _clock.GetUtcNow().UtcDateTime.AddSeconds(30)), (string r, ServerCallContext _) =>
        {
            seen = CiceroContext.Current;
            return Task.FromResult(r);
        });

        Assert.Equal(TimeSpan.FromMilliseconds(750), seen?.Deadline);
    }

    [Fact]
    public async Task DefaultDeadline_AppliesToACallWithoutAGrpcDeadline()
    {
        using var cicero = new CiceroServices(o => { o.Classifier = WorkflowClassifiers.Fixed("t"); o.DefaultDeadline = TimeSpan.FromSeconds(2); }, _clock);
        RequestContext? seen = null;

        await cicero.Interceptor.UnaryServerHandler("x", new TestServerCallContext(deadline: DateTime.MaxValue), (string r, ServerCallContext _) =>
        {
            seen = CiceroContext.Current;
            return Task.FromResult(r);
        });

        Assert.Equal(TimeSpan.FromSeconds(2), seen?.Deadline);
    }

    [Fact]
    public async Task ServerStreaming_RunsInTheContext_AndEndsWithTheTrailer()
    {
        var call = new TestServerCallContext("/cicero.test.Probe/Split");
        var responses = new ListWriter<string>();

        await _cicero.Interceptor.ServerStreamingServerHandler("x", responses, call, async (request, stream, _) =>
        {
            CiceroContext.Current!.Progress.AddLocalWork(0.5, 2);
            await stream.WriteAsync(CiceroContext.Current.Workflow.Value);
            await Task.Yield();
            await stream.WriteAsync(request);
        });

        Assert.Equal(["tenant-a", "x"], responses.Written);
        Assert.True(CiceroTrailers.TryReadProgress(call.ResponseTrailers, out var progress));
        Assert.Equal(new ProgressDelta(0.5, 2), progress);
        Assert.Equal(0, _cicero.Interceptor.InFlight);
    }

    [Fact]
    public async Task ClientStreaming_RunsInTheContext_AndADropBecomesItsStatus()
    {
        var ok = new TestServerCallContext("/cicero.test.Probe/Join");
        var joined = await _cicero.Interceptor.ClientStreamingServerHandler(new ListReader<string>("a", "b"), ok, async (requests, _) =>
        {
            var text = CiceroContext.Current!.Workflow.Value + ":";
            while (await requests.MoveNext())
            {
                text += requests.Current;
            }

            return text;
        });

        var dropped = new TestServerCallContext("/cicero.test.Probe/Join");
        var ex = await Assert.ThrowsAsync<RpcException>(() => _cicero.Interceptor.ClientStreamingServerHandler<string, string>(
            new ListReader<string>("a"), dropped, (_, _) => throw new RequestDroppedException(DropReason.Policy)));

        Assert.Equal("tenant-a:ab", joined);
        Assert.True(CiceroTrailers.TryRead(ok.ResponseTrailers, out _));
        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal("policy", ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.True(CiceroTrailers.TryRead(dropped.ResponseTrailers, out _));
        Assert.Equal(0, _cicero.Interceptor.InFlight);
    }

    [Fact]
    public async Task Duplex_RunsInTheContext_AndEndsWithTheTrailer()
    {
        var call = new TestServerCallContext("/cicero.test.Probe/Echo");
        var responses = new ListWriter<string>();

        await _cicero.Interceptor.DuplexStreamingServerHandler(new ListReader<string>("a", "b", "c"), responses, call, async (requests, stream, _) =>
        {
            while (await requests.MoveNext())
            {
                CiceroContext.Current!.Progress.AddLocalWork(0.25, 1);
                await stream.WriteAsync(CiceroContext.Current.Workflow.Value + requests.Current);
            }
        });

        Assert.Equal(["tenant-aa", "tenant-ab", "tenant-ac"], responses.Written);
        Assert.True(CiceroTrailers.TryReadProgress(call.ResponseTrailers, out var progress));
        Assert.Equal(new ProgressDelta(0.75, 3), progress);
    }

    private static async Task<string> Invalid(CiceroServices cicero, Metadata headers)
    {
        var ex = await Assert.ThrowsAsync<RpcException>(() => cicero.Interceptor.UnaryServerHandler(
            "x", new TestServerCallContext(requestHeaders: headers), (string r, ServerCallContext _) => Task.FromResult(r)));
        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        return ex.Status.Detail;
    }

    /// <summary>Closes the model's interval and reads the callers' outcomes it counted for <paramref name="workflow"/>.</summary>
    private (long Succeeded, long Failed) CloseIntervalAndCountOutcomes(CiceroRuntime runtime, string workflow)
    {
        _clock.Advance(runtime.Options.RateAdaptation.Interval);
        runtime.RateAdaptation.Step(_clock.GetTimestamp());
        var model = runtime.Model.Get(runtime.Registry.Resolve(workflow));
        return (model.LastIntervalSucceeded, model.LastIntervalFailed);
    }
}
