// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Simulation.Topology;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>The console summary: per workflow and configuration, the share of offered requests completed and the p99 latency.</summary>
internal static class ResultTable
{
    public static Table Build(IReadOnlyList<TopologyRunResult> results)
    {
        var table = new Table().Border(TableBorder.Rounded).Title("completed % of offered / p99 latency (ms), measured window");
        table.AddColumn("workflow");
        foreach (var result in results)
        {
            table.AddColumn(new TableColumn(Markup.Escape(result.Configuration)).RightAligned());
        }

        var workflows = new List<string>();
        foreach (var result in results)
        {
            foreach (var workflow in result.Workflows)
            {
                if (!workflows.Contains(workflow.Workflow))
                {
                    workflows.Add(workflow.Workflow);
                }
            }
        }

        foreach (var workflow in workflows)
        {
            var cells = new List<string> { Markup.Escape(workflow) };
            foreach (var result in results)
            {
                var w = result.Workflows.FirstOrDefault(r => r.Workflow == workflow);
                cells.Add(w is null || w.Offered == 0
                    ? "–"
                    : string.Create(CultureInfo.InvariantCulture, $"{100 * w.CompletedFraction:F1}% / {(double.IsNaN(w.LatencyMs.P99) ? "–" : w.LatencyMs.P99.ToString("F0", CultureInfo.InvariantCulture))}"));
            }

            table.AddRow([.. cells]);
        }

        return table;
    }
}
