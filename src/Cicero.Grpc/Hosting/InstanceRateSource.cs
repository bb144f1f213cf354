// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Context;
using Cicero.RateAdaptation;

namespace Cicero.Grpc.Hosting;

/// <summary>
/// Asks downstream instances for their rates as this instance, by the id its client interceptor sends on calls. The id
/// is known only once the server listens, after the options were validated and the runtime built; reading it here at
/// each query means nothing has to write it into <c>RateAdaptationOptions.ProcessId</c> after start-up.
/// </summary>
internal sealed class InstanceRateSource(IDownstreamRateSource transport, CiceroInstance instance) : IDownstreamRateSource
{
    public ValueTask<DownstreamRateAnswer> GetAdmissionRatesAsync(DownstreamInstance target, string caller, CancellationToken cancellationToken) =>
        transport.GetAdmissionRatesAsync(target, instance.Id, cancellationToken);
}
