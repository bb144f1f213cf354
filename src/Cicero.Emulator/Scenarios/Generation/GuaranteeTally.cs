// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>The pass counts of a sweep, clause by clause, and the summary line <c>check</c> ends with.</summary>
public static class GuaranteeTally
{
    /// <summary>
    /// The summary: <c>healthy H1+H2 a/b; aggressor A1 rc a/b rc+drr a/b; A2 rc a/b rc+drr a/b; A3 rc a/b rc+drr a/b</c>,
    /// where b counts the healthy (or aggressor) seeds and a those on which the clause holds (H1 and H2 under both
    /// <c>rc</c> and <c>rc+drr</c>, for the healthy count).
    /// </summary>
    /// <param name="reports">The reports.</param>
    /// <returns>The line.</returns>
    public static string Line(IReadOnlyCollection<GuaranteeReport> reports)
    {
        ArgumentNullException.ThrowIfNull(reports);
        var healthy = reports.Where(r => r.Category == GuaranteeReport.Healthy).ToArray();
        var aggressor = reports.Where(r => r.Category == GuaranteeReport.Aggressor).ToArray();
        var healthyPassed = healthy.Count(r => RateControlGuarantee.Pairs.All(p => r.Holds("H1", p.RateControlled) && r.Holds("H2", p.RateControlled)));
        string Clause(string name) =>
            string.Join(" ", RateControlGuarantee.Pairs.Select(p => F($"{p.RateControlled} {aggressor.Count(r => r.Holds(name, p.RateControlled))}/{aggressor.Length}")));
        return F($"healthy H1+H2 {healthyPassed}/{healthy.Length}; aggressor A1 {Clause("A1")}; A2 {Clause("A2")}; A3 {Clause("A3")}");
    }

    /// <summary>How many seeds keep conservation and the σ bound, over how many: <c>always a/b</c>.</summary>
    /// <param name="reports">The reports.</param>
    /// <returns>The line.</returns>
    public static string AlwaysLine(IReadOnlyCollection<GuaranteeReport> reports)
    {
        ArgumentNullException.ThrowIfNull(reports);
        return F($"conservation and σ bound {reports.Count(r => r.AlwaysViolations.Count == 0)}/{reports.Count}");
    }

    private static string F(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
