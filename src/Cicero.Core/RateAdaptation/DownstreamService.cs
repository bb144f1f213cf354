// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>The instances of one downstream service a <see cref="RateAdaptationController"/> polls.</summary>
internal sealed class DownstreamService
{
    public List<DownstreamInstanceState> Instances { get; } = [];

    public DownstreamInstanceState? Find(string name)
    {
        foreach (var instance in Instances)
        {
            if (instance.Name == name)
            {
                return instance;
            }
        }

        return null;
    }
}
