// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>A consistent-hash ring over a service's instances, with virtual nodes to even out ownership.</summary>
internal sealed class ConsistentHashRing
{
    private readonly ulong[] _points;
    private readonly int[] _owners;

    public ConsistentHashRing(string service, int instances, int virtualNodes)
    {
        var nodes = new (ulong Point, int Owner)[instances * virtualNodes];
        for (var i = 0; i < instances; i++)
        {
            for (var v = 0; v < virtualNodes; v++)
            {
                nodes[(i * virtualNodes) + v] = (StableHash.Of(service, i, v), i);
            }
        }

        // Ties (vanishingly rare) break by owner so the order never depends on the sort's stability.
        Array.Sort(nodes, static (x, y) => x.Point != y.Point ? x.Point.CompareTo(y.Point) : x.Owner.CompareTo(y.Owner));
        _points = new ulong[nodes.Length];
        _owners = new int[nodes.Length];
        for (var n = 0; n < nodes.Length; n++)
        {
            _points[n] = nodes[n].Point;
            _owners[n] = nodes[n].Owner;
        }
    }

    /// <summary>Gets the instance that owns <paramref name="key"/>: the first point at or after it, wrapping around.</summary>
    public int Owner(ulong key)
    {
        var index = Array.BinarySearch(_points, key);
        if (index < 0)
        {
            index = ~index;
        }

        return _owners[index == _points.Length ? 0 : index];
    }
}
