// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>One polled instance: its last good answer, when it came, and how often it has failed since.</summary>
internal sealed class DownstreamInstanceState(string name)
{
    public string Name { get; } = name;

    public Dictionary<string, double> Rates { get; } = new(StringComparer.Ordinal);

    public long LastAnswer { get; set; } = long.MinValue;

    public int ConsecutiveFailures { get; set; }

    public bool Unsupported { get; set; }
}
