// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Tests.Protos;
using Grpc.Core;

namespace Cicero.Grpc.Tests.Infrastructure;

/// <summary>The generated <c>cicero.test.Probe</c> service, doing what the registered <see cref="ProbeHandlers"/> say.</summary>
internal sealed class ProbeService(ProbeHandlers handlers) : Probe.ProbeBase
{
    public override Task<Text> Work(Text request, ServerCallContext context) => handlers.Work(request, context);

    public override Task Split(Text request, IServerStreamWriter<Text> responseStream, ServerCallContext context) =>
        handlers.Split(request, responseStream, context);

    public override Task<Text> Join(IAsyncStreamReader<Text> requestStream, ServerCallContext context) => handlers.Join(requestStream, context);

    public override Task Echo(IAsyncStreamReader<Text> requestStream, IServerStreamWriter<Text> responseStream, ServerCallContext context) =>
        handlers.Echo(requestStream, responseStream, context);
}
