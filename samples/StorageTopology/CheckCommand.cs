// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Scenarios.Generation;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>Runs <c>check</c>'s sweep and prints it; the summary of <see cref="GuaranteeTally.Line"/> is the last line.</summary>
internal static class CheckCommand
{
    public static int Run(IAnsiConsole console, IAnsiConsole errors, CheckSweep sweep, string? failureFolder, string? jsonPath)
    {
        var started = TimeProvider.System.GetTimestamp();
        var results = GuaranteeSweep.Run(
            sweep.From,
            sweep.Count,
            sweep.Kind,
            sweep.Parallel,
            generated => sweep.Tuning.Apply(generated.Scenario),
            (report, wall) => Print(console, report, wall, failureFolder, sweep));
        var elapsed = TimeProvider.System.GetElapsedTime(started);
        var reports = results.Select(r => r.Report).ToArray();
        console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{reports.Count(r => r.Passed)} of {reports.Length} seeds passed every clause; {elapsed.TotalSeconds:F0} s wall at --parallel {sweep.Parallel} ({results.Sum(r => r.Wall.TotalSeconds):F0} s of checking)."));
        foreach (var (report, wall) in results.OrderByDescending(r => r.Wall).Take(3))
        {
            console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"slowest: seed {report.Seed} {wall.TotalSeconds:F1} s ({report.Description})"));
        }

        foreach (var report in reports.Where(r => r.Worst is not null).OrderBy(r => r.Worst!.Margin).Take(5))
        {
            console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"worst: seed {report.Seed} {report.Worst!.Name} {report.Worst.Configuration} margin {report.Worst.Margin:F3}: {report.Worst.Detail}"));
        }

        if (jsonPath is not null)
        {
            try
            {
                using var file = File.Create(jsonPath);
                GuaranteeJson.Write(file, results);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                return CommandErrors.Report(errors, "Cannot write the verdicts.", ex.Message, ExitCodes.ReportFailed);
            }
        }

        console.WriteLine(GuaranteeTally.AlwaysLine(reports));
        console.WriteLine(GuaranteeTally.Line(reports));
        return reports.All(r => r.Passed) ? ExitCodes.Success : ExitCodes.RunFailed;
    }

    private static void Print(IAnsiConsole console, GuaranteeReport report, TimeSpan wall, string? failureFolder, CheckSweep sweep)
    {
        var worst = report.Worst is { } clause ? string.Create(CultureInfo.InvariantCulture, $", worst {clause.Name} {clause.Configuration} margin {clause.Margin:F3} ({clause.Detail})") : string.Empty;
        console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"seed {report.Seed} {report.LoadKind} ({report.Category}): {(report.Passed ? "pass" : "FAIL")} in {wall.TotalSeconds:F1} s{worst}"));
        foreach (var failed in report.Clauses.Where(c => !c.Passed))
        {
            console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"    {failed.Name} {failed.Configuration} margin {failed.Margin:F3}: {failed.Detail}"));
        }

        foreach (var violation in report.AlwaysViolations)
        {
            console.WriteLine("    " + violation);
        }

        if (!report.Passed && failureFolder is not null)
        {
            // The scenario as checked: regenerated from its seed and tuned the same way.
            var generated = ScenarioGenerator.Generate(report.Seed, sweep.Kind);
            sweep.Tuning.Apply(generated.Scenario);
            Directory.CreateDirectory(failureFolder);
            File.WriteAllText(Path.Combine(failureFolder, string.Create(CultureInfo.InvariantCulture, $"generated-{report.Seed}.json")), ScenarioLoader.ToJson(generated.Scenario));
        }
    }
}
