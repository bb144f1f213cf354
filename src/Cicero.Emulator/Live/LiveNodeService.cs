// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Live.Protocol;
using Grpc.Core;

namespace Cicero.Emulator.Live;

/// <summary>The generated <c>cicero.emulator.v1.Node</c> service of one instance: runs the plan body a request names.</summary>
/// <param name="instance">The instance whose resources and clients the plan uses.</param>
internal sealed class LiveNodeService(LiveInstance instance) : Node.NodeBase
{
    public override Task<NodeReply> Execute(NodeRequest request, ServerCallContext context) => instance.ExecuteAsync(request, context);
}
