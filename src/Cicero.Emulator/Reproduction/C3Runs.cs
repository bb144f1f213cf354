// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.ReplicaSelection;

namespace Cicero.Emulator.Reproduction;

/// <summary>Runs one replica-simulation configuration over seeds 1..n and averages what the tables show.</summary>
internal sealed class C3Runs
{
    private C3Runs(string selector, ReplicaSimulationResult[] runs)
    {
        Selector = selector;
        Runs = runs;
    }

    public string Selector { get; }

    public ReplicaSimulationResult[] Runs { get; }

    public double P50 => Runs.Average(r => r.P50);

    public double P99 => Runs.Average(r => r.P99);

    public double P999 => Runs.Average(r => r.P999);

    public double Mean => Runs.Average(r => r.Mean);

    public double LowRateP99 => Runs.Average(r => r.LowRateP99);

    public double RateLimited => Runs.Average(r => (double)r.RateLimited);

    public double FeedbackAgeMs => Runs.Average(r => r.MeanFeedbackAgeMs);

    public double Backlogged => Runs.Average(r => (double)r.Backlogged);

    public static C3Runs Run(ReplicaSimulationOptions options, string selector, int seeds, int parallelism)
    {
        var runs = new ReplicaSimulationResult[seeds];
        Parallel.For(0, seeds, new ParallelOptions { MaxDegreeOfParallelism = parallelism }, i => runs[i] = new ReplicaSimulation(options, selector, i + 1).Run());
        foreach (var run in runs)
        {
            if (!run.Conserved)
            {
                throw new InvalidOperationException($"A run of {selector} (seed {run.Seed}) did not conserve requests.");
            }
        }

        return new C3Runs(selector, runs);
    }

    /// <summary>One figure per seed, in seed order (every configuration runs seeds 1..n).</summary>
    public double[] PerSeed(Func<ReplicaSimulationResult, double> figure) => [.. Runs.Select(figure)];

    /// <summary>The p99 per seed.</summary>
    public double[] P99s => PerSeed(r => r.P99);

    /// <summary>This configuration's p99 over another's, seed by seed (paired on the environment).</summary>
    public double[] P99Ratios(C3Runs baseline) => Verdicts.Ratio(P99s, baseline.P99s);

    /// <summary>The mean over seeds of this configuration's p99 over another's, seed by seed (paired on the environment).</summary>
    public double P99Ratio(C3Runs baseline) => Runs.Zip(baseline.Runs, (a, b) => a.P99 / b.P99).Average();
}
