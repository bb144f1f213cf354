// SPDX-License-Identifier: Apache-2.0

using Cicero.Diagnostics;

namespace Cicero.Resources;

/// <summary>What one resource reports to the meters, tagged with its name; each call costs a flag test when no one listens.</summary>
internal sealed class ResourceInstruments(string resourceName)
{
    private readonly KeyValuePair<string, object?> _resourceTag = new(CiceroTelemetry.ResourceTag, resourceName);

    public void QueueLengthChanged(int delta)
    {
        if (CiceroInstruments.ResourceQueueLength.Enabled)
        {
            CiceroInstruments.ResourceQueueLength.Add(delta, _resourceTag);
        }
    }

    public void Served(double heldSeconds)
    {
        if (CiceroInstruments.ResourceServiceDuration.Enabled)
        {
            CiceroInstruments.ResourceServiceDuration.Record(heldSeconds, _resourceTag);
        }
    }

    public void Waited(double seconds)
    {
        if (CiceroInstruments.ResourceWaitDuration.Enabled)
        {
            CiceroInstruments.ResourceWaitDuration.Record(seconds, _resourceTag);
        }
    }

    public void Rejected(DropReason reason)
    {
        if (CiceroInstruments.SubtasksDropped.Enabled)
        {
            CiceroInstruments.SubtasksDropped.Add(
                1, _resourceTag, new KeyValuePair<string, object?>(CiceroTelemetry.DropReasonTag, CiceroInstruments.ToTag(reason)));
        }
    }
}
