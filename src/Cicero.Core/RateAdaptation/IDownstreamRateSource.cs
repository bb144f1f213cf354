// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>The transport through which a process asks a downstream instance for its admission rates.</summary>
/// <remarks>
/// Cicero.Grpc provides the gRPC client; <see cref="InMemoryDownstreamRateSource"/> connects controllers in one
/// process for tests and simulation. Implementations should honour the cancellation token; the controller also stops
/// waiting after its query timeout.
/// </remarks>
public interface IDownstreamRateSource
{
    /// <summary>Asks <paramref name="instance"/> for the rates it grants <paramref name="caller"/>.</summary>
    /// <param name="instance">The downstream instance.</param>
    /// <param name="caller">The asking process's id.</param>
    /// <param name="cancellationToken">Cancelled at the controller's query timeout.</param>
    /// <returns>
    /// The instance's answer; <see cref="DownstreamRateAnswer.Unsupported"/> when it takes no part in rate exchange (it
    /// runs no Cicero). Any exception counts as a failed query: the instance's last answer ages.
    /// </returns>
    ValueTask<DownstreamRateAnswer> GetAdmissionRatesAsync(DownstreamInstance instance, string caller, CancellationToken cancellationToken);
}
