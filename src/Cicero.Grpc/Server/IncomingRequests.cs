// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Runtime;
using Grpc.Core;

namespace Cicero.Grpc.Server;

/// <summary>
/// Reading or starting an incoming call's request context: which calls pass through exempt, whose context is trusted,
/// the header's limits and decoding, and the deadline a new context starts with.
/// </summary>
/// <remarks>An untrusted entry caller's context is never decoded: its workflow must not enter the registry.</remarks>
internal sealed class IncomingRequests(CiceroRuntime runtime, CiceroGrpcOptions options)
{
    private readonly CallerIds _callers = new();
    private readonly string[] _exempt = [.. options.ExemptServices.Select(service => "/" + service + "/")];

    /// <summary>Whether the caller's context is believed: always inside the system, at an entry point only if the options say so.</summary>
    public bool IsTrusted(ServerCallContext context) =>
        !options.IsEntryPoint || options.TrustIncomingContext || (options.IsTrustedCaller?.Invoke(context) ?? false);

    /// <summary>Whether the call belongs to a control-plane service that passes through untouched.</summary>
    public bool IsExempt(ServerCallContext context)
    {
        var method = context.Method;
        if (method.StartsWith(RateExchange.RateExchangeService.MethodPrefix, StringComparison.Ordinal))
        {
            return true;
        }

        var exempt = _exempt;
        for (var i = 0; i < exempt.Length; i++)
        {
            if (method.StartsWith(exempt[i], StringComparison.Ordinal))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Decodes the caller's context (trusted callers only) or starts one for a call entering the system here.
    /// A malformed or oversized header is <see cref="StatusCode.InvalidArgument"/>, thrown here; a deadline that has
    /// already passed is returned as <see cref="IncomingRequest.ExpiredBecause"/> for the caller to drop.
    /// </summary>
    public IncomingRequest ReadOrStart(ServerCallContext context, long now)
    {
        var trusted = IsTrusted(context);
        RequestContext? request = null;
        string? caller = null;
        Span<byte> buffer = stackalloc byte[ContextHeader.MaxLength];
        var read = IncomingHeaders.TryRead(context, CiceroMetadataKeys.Context, buffer, out var length);
        switch (read)
        {
            case IncomingHeaders.Outcome.Malformed:
                throw CallerFacingErrors.Invalid($"Header '{CiceroMetadataKeys.Context}' is malformed: it must be one binary (base64) value.");
            case IncomingHeaders.Outcome.TooLong:
                throw CallerFacingErrors.Invalid($"Header '{CiceroMetadataKeys.Context}' is longer than the limit of {options.MaxContextHeaderBytes} bytes.");
            case IncomingHeaders.Outcome.Found when length > options.MaxContextHeaderBytes:
                throw CallerFacingErrors.Invalid($"Header '{CiceroMetadataKeys.Context}' is {length} bytes; the limit is {options.MaxContextHeaderBytes}.");
            case IncomingHeaders.Outcome.Found when trusted:
                // An untrusted caller's context is not even decoded: its workflow must not enter the registry.
                ContextHeader.Split(buffer[..length], out var contextBytes, out var callerBytes);
                if (!runtime.Codec.TryRead(contextBytes, now, out request, out var error))
                {
                    throw CallerFacingErrors.Invalid($"Header '{CiceroMetadataKeys.Context}' is malformed: {error}");
                }

                if (!callerBytes.IsEmpty)
                {
                    if (!CallerIds.IsValid(callerBytes))
                    {
                        throw CallerFacingErrors.Invalid($"Header '{CiceroMetadataKeys.Context}' is malformed: the caller id after the context must be 1-{CallerIds.MaxLength} printable ASCII characters without spaces.");
                    }

                    caller = _callers.Get(callerBytes);
                }

                break;
        }

        if (request is not null)
        {
            if (request.GetRemainingBudget(runtime.TimeProvider) is { } remaining && remaining <= TimeSpan.Zero)
            {
                // The end-to-end deadline passed on the way here: nothing this call does can still count.
                return new IncomingRequest(request, caller, false, "the request's end-to-end deadline passed before this hop");
            }

            return new IncomingRequest(request, caller, false, null);
        }

        var workflow = options.Classifier.Classify(context);
        var deadline = options.DeadlineSelector?.Invoke(context, workflow)
            ?? (context.Deadline != DateTime.MaxValue ? context.Deadline - runtime.TimeProvider.GetUtcNow().UtcDateTime : options.DefaultDeadline);
        if (deadline <= TimeSpan.Zero)
        {
            // The caller's deadline passed before admission (a timeout of a few nanoseconds, or time spent in the
            // transport): nothing can finish in time, and a context cannot carry a δ that is not positive.
            return new IncomingRequest(null, caller, true, "the call's deadline passed before it was admitted");
        }

        return new IncomingRequest(runtime.StartRequest(workflow, deadline), caller, true, null);
    }
}

/// <summary>An incoming call's context, read or started, or why its deadline had already passed.</summary>
/// <param name="Request">The context; <see langword="null"/> only when a new call's deadline had passed.</param>
/// <param name="Caller">The calling process, if the context named it.</param>
/// <param name="IsEntry">Whether the call enters the system here.</param>
/// <param name="ExpiredBecause">Set when the deadline passed before admission: the detail of the drop.</param>
internal readonly record struct IncomingRequest(RequestContext? Request, string? Caller, bool IsEntry, string? ExpiredBecause);
