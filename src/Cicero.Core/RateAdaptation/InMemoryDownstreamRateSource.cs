// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>
/// Connects rate adaptation controllers in one process: a query to an instance is answered by that instance's
/// controller directly. For tests, samples and the simulator; instances can be made to fail.
/// </summary>
/// <remarks>Thread-safe. Answers complete synchronously, so a virtual clock drives the whole exchange deterministically.</remarks>
public sealed class InMemoryDownstreamRateSource : IDownstreamRateSource
{
    private readonly Lock _lock = new();
    private readonly Dictionary<DownstreamInstance, RateAdaptationController> _instances = [];
    private readonly HashSet<DownstreamInstance> _unavailable = [];

    /// <summary>Makes <paramref name="controller"/> answer queries addressed to <paramref name="instance"/>.</summary>
    /// <param name="instance">The address callers use.</param>
    /// <param name="controller">The instance's controller.</param>
    public void Register(DownstreamInstance instance, RateAdaptationController controller)
    {
        ArgumentNullException.ThrowIfNull(controller);
        lock (_lock)
        {
            _instances[instance] = controller;
        }
    }

    /// <summary>Makes an instance stop answering (queries fail) or answer again.</summary>
    /// <param name="instance">The instance.</param>
    /// <param name="available"><see langword="false"/> to make it fail.</param>
    internal void SetAvailable(DownstreamInstance instance, bool available)
    {
        lock (_lock)
        {
            if (available)
            {
                _unavailable.Remove(instance);
            }
            else
            {
                _unavailable.Add(instance);
            }
        }
    }

    /// <inheritdoc />
    public ValueTask<DownstreamRateAnswer> GetAdmissionRatesAsync(DownstreamInstance instance, string caller, CancellationToken cancellationToken)
    {
        RateAdaptationController? controller;
        lock (_lock)
        {
            if (_unavailable.Contains(instance) || !_instances.TryGetValue(instance, out controller))
            {
                return ValueTask.FromException<DownstreamRateAnswer>(
                    new InvalidOperationException($"Downstream instance {instance} is not reachable."));
            }
        }

        return new ValueTask<DownstreamRateAnswer>(controller.GetAdmissionRatesFor(caller));
    }
}
