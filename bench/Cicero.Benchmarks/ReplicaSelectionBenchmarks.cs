// SPDX-License-Identifier: Apache-2.0

using BenchmarkDotNet.Attributes;
using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Benchmarks;

/// <summary>
/// One pick among 3 replicas that all have feedback (scores computed, sorted, rate checked), with the send and
/// response reported as an engine would. Round robin is the same-run baseline.
/// </summary>
[MemoryDiagnoser]
public class ReplicaSelectionBenchmarks
{
    private readonly ReplicaState[] _c3Replicas = [new("a"), new("b"), new("c")];
    private readonly ReplicaState[] _rrReplicas = [new("a"), new("b"), new("c")];
    private IReplicaSelector _c3 = null!;
    private IReplicaSelector _roundRobin = null!;
    private long _now;

    [GlobalSetup]
    public void Setup()
    {
        var options = new C3Options { ClientCount = 10 };
        options.Rate.InitialRate = 1e9;
        options.Rate.MaxTokens = 1e9;
        _c3 = new C3ReplicaSelector(options, TimeSpan.TicksPerSecond);
        _roundRobin = RoundRobinSelector.CreateFactory().Create(TimeSpan.TicksPerSecond);
        for (var i = 0; i < _c3Replicas.Length; i++)
        {
            _c3.OnFeedback(_c3Replicas[i], new ReplicaFeedback(TimeSpan.FromMilliseconds(2 + i), i, TimeSpan.FromMilliseconds(1 + i)), 0);
        }
    }

    [Benchmark(Baseline = true, Description = "Round robin pick + send + response")]
    public int RoundRobin() => Cycle(_roundRobin, _rrReplicas);

    [Benchmark(Description = "C3 pick among 3 + send + response")]
    public int C3() => Cycle(_c3, _c3Replicas);

    [Benchmark(Description = "C3 pick among 3 (Choose only)")]
    public int C3ChooseOnly() => _c3.Choose(_c3Replicas, _now).Index;

    private int Cycle(IReplicaSelector selector, ReplicaState[] replicas)
    {
        _now += 1000;
        var choice = selector.Choose(replicas, _now);
        var replica = replicas[choice.Index];
        replica.Outstanding++;
        selector.OnSent(replica, _now);
        replica.Outstanding--;
        selector.OnFeedback(replica, new ReplicaFeedback(TimeSpan.FromMilliseconds(2), 1, TimeSpan.FromMilliseconds(1)), _now);
        return choice.Index;
    }
}
