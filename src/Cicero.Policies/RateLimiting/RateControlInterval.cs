// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// One control interval as it passes through the rate-control pipeline: the measured inputs, the detector's reading and
/// load per workflow and resource, and which workflows the allocator cut. Reused from one interval to the next.
/// </summary>
internal sealed class RateControlInterval
{
    private bool[] _cut = [];
    private LocalRateInputs? _inputs;
    private DemandOverloadDetector? _detector;

    /// <summary>Gets the interval's measured inputs.</summary>
    public LocalRateInputs Inputs => _inputs ?? throw new InvalidOperationException("The interval has not started.");

    /// <summary>Gets the detector's reading of the interval.</summary>
    public OverloadReading Reading { get; private set; }

    /// <summary>Starts an interval: forgets the last one's cuts.</summary>
    public void Start(LocalRateInputs inputs, DemandOverloadDetector detector, OverloadReading reading)
    {
        _inputs = inputs;
        _detector = detector;
        Reading = reading;
        var n = inputs.Workflows.Length;
        if (_cut.Length < n)
        {
            _cut = new bool[Math.Max(n, 16)];
        }

        _cut.AsSpan(0, n).Clear();
    }

    /// <summary>The load workflow <paramref name="workflow"/> puts on resource <paramref name="resource"/>, as the detector measures it.</summary>
    public double Load(int workflow, int resource) => _detector!.Load(Inputs, workflow, resource);

    /// <summary>Records that the allocator cut the workflow below its load at the bottleneck.</summary>
    public void MarkCut(int workflow) => _cut[workflow] = true;

    /// <summary>Whether the allocator cut the workflow this interval.</summary>
    public bool WasCut(int workflow) => workflow < _cut.Length && _cut[workflow];
}
