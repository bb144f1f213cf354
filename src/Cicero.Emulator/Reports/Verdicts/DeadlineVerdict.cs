// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Traces.Replay;

namespace Cicero.Emulator.Reports.Verdicts;

/// <summary>
/// The deadline experiment's verdict: per load level, the configuration with the highest goodput (requests completed
/// within their deadline, as a share of those offered), and overall the one best at every level.
/// </summary>
/// <remarks>
/// A configuration is best at a level when its goodput beats every other's by more than
/// <see cref="ReportVerdict.GoodputTolerance"/> (absolute, as a share of offered requests); configurations within that
/// of the highest tie. It wins overall when it is best or tied best at every level and alone best at one or more.
/// The experiment runs one seed, so the tolerance stands in for the spread of repeated runs.
/// </remarks>
public sealed class DeadlineVerdict
{
    private DeadlineVerdict(string? winner, IReadOnlyList<string> sentences)
    {
        Winner = winner;
        Sentences = sentences;
    }

    /// <summary>Gets the overall winner, or <see langword="null"/> when no configuration is best at every level.</summary>
    public string? Winner { get; }

    /// <summary>Gets the verdict: one sentence per load level, then the overall one.</summary>
    public IReadOnlyList<string> Sentences { get; }

    /// <summary>Judges the experiment's rows.</summary>
    /// <param name="result">The result.</param>
    /// <returns>The verdict.</returns>
    public static DeadlineVerdict Of(DeadlineExperimentResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var sentences = new List<string>();
        var alone = new HashSet<string>(StringComparer.Ordinal);
        HashSet<string>? alwaysBest = null;
        foreach (var level in result.Rows.GroupBy(static r => r.LoadLevel))
        {
            var rows = level.ToList();
            var top = rows.Max(static r => r.Goodput);
            var best = rows.Where(r => r.Goodput >= top - ReportVerdict.GoodputTolerance).Select(static r => r.Configuration).ToList();
            var label = (result.ClosedLoop ? "clients " : "speed-up ") + level.Key.ToString("0.##", CultureInfo.InvariantCulture);
            var figures = string.Join(", ", rows.Select(static r => $"{r.Configuration} {Percent(r.Goodput)}"));
            sentences.Add(best.Count == 1 && rows.Count > 1
                ? $"At {label}: {best[0]} has the highest goodput ({figures})."
                : $"At {label}: {string.Join(", ", best)} tie on goodput within {100 * ReportVerdict.GoodputTolerance:0} points ({figures}).");
            if (best.Count == 1)
            {
                alone.Add(best[0]);
            }

            alwaysBest = alwaysBest is null ? [.. best] : [.. alwaysBest.Intersect(best)];
        }

        var winner = alwaysBest is { Count: 1 } && alone.Count == 1 && alwaysBest.Contains(alone.First()) ? alone.First() : null;
        sentences.Add(winner is null
            ? "No configuration has the highest goodput at every load level beyond the tolerance: tie."
            : $"{winner} has the highest goodput at every load level.");
        return new DeadlineVerdict(winner, sentences);
    }

    private static string Percent(double fraction) => (100 * fraction).ToString("0.#", CultureInfo.InvariantCulture) + "%";
}
