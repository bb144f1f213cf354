// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using System.Diagnostics;
using System.Globalization;
using Cicero.Emulator.Reproduction;

namespace Cicero.Reproduction;

/// <summary>Regenerates every table of docs/reproduction.md from runs, and judges each published claim on them.</summary>
internal static class ReproduceCommand
{
    private const int InvalidArguments = 2;

    public static int Run(string[] args, TextWriter output, TextWriter errors)
    {
        var document = new Option<string>("--doc") { Description = "The document to fill in place.", DefaultValueFactory = _ => Path.Combine("docs", "reproduction.md") };
        var trace = new Option<string>("--trace")
        {
            Description = "The public Meta block-trace sample for Table 5.4.",
            DefaultValueFactory = _ => Path.Combine("..", "shared", "traces-public", "meta-cachelib-traces", "block_traces_1.csv"),
        };
        var sweepTraces = new Option<string[]>("--sweep-trace")
        {
            Description = "The Table 5.4 sweep's traces as FORMAT:PATH (meta-block, meta-kv, azure-llm); by default the shared block sample, both kv samples and Azure's LLM code trace (the block sample only with --reduced). Missing files are left out.",
            AllowMultipleArgumentsPerToken = true,
        };
        var reduced = new Option<bool>("--reduced") { Description = "CI size: 3 seeds, fewer configurations, the block sample only in the sweep; writes results/reproduction/reduced/ (what CI compares against) and leaves the document alone." };
        var renderOnly = new Option<bool>("--render") { Description = "Run nothing: render docs/reproduction.md and its tables page from the result files." };
        var results = new Option<string?>("--results") { Description = "Where the section result files go: results/reproduction by default, results/reproduction/reduced with --reduced." };
        var only = new Option<string[]>("--only")
        {
            Description = "Run only these studies: c3, deadline, sweep (Table 5.4 across permits, traces and seeds), scenarios.",
            AllowMultipleArgumentsPerToken = true,
            DefaultValueFactory = _ => ["c3", "deadline", "sweep", "scenarios"],
        };
        only.AcceptOnlyFromAmong("c3", "deadline", "sweep", "scenarios");
        var sectionIds = new Option<string[]>("--sections")
        {
            Description = "Only these sections of the C3 and scenario studies: " + string.Join(", ", SectionNames) + ".",
            AllowMultipleArgumentsPerToken = true,
        };
        sectionIds.AcceptOnlyFromAmong([.. SectionNames]);
        var root = new RootCommand("Regenerates the tables of docs/reproduction.md from runs: the C3 simulation study, Table 5.4, and the embedded reproduction scenarios.")
        {
            document, trace, sweepTraces, reduced, results, renderOnly, only, sectionIds,
        };
        var parse = root.Parse(args);
        if (parse.Errors.Count > 0)
        {
            errors.WriteLine("error: " + OneLine(parse.Errors[0].Message));
            return InvalidArguments;
        }

        if (args.Any(a => a is "-h" or "--help" or "-?"))
        {
            return parse.Invoke();
        }

        var documentPath = parse.GetValue(document)!;
        var tracePath = parse.GetValue(trace)!;
        var studies = parse.GetValue(only)!;
        var isReduced = parse.GetValue(reduced);
        if (!isReduced && !File.Exists(documentPath))
        {
            errors.WriteLine($"error: --doc: '{documentPath}' does not exist (run from the repository root, or pass --doc).");
            return InvalidArguments;
        }

        if (parse.GetValue(renderOnly))
        {
            try
            {
                ReproductionPages.Render(documentPath, ReproductionResults.Read(parse.GetValue(results) ?? ReproductionResults.FullDirectory));
                output.WriteLine("Rendered " + Path.GetFullPath(documentPath) + " and its tables page from the results");
                return 0;
            }
            catch (FormatException ex)
            {
                errors.WriteLine("error: " + ex.Message);
                return InvalidArguments;
            }
        }

        if (studies.Contains("deadline") && !File.Exists(tracePath))
        {
            errors.WriteLine($"error: --trace: '{tracePath}' does not exist (the public traces sit beside the repository in shared/traces-public).");
            return InvalidArguments;
        }

        // Without --sweep-trace the traces are the ones CI's comparison uses (ReproductionSettings.DefaultSweepTraces),
        // so a reduced run of the command and the test's run are the same run.
        var sweep = new List<SweepTrace>();
        foreach (var value in parse.GetValue(sweepTraces) ?? [])
        {
            var colon = value.IndexOf(':', StringComparison.Ordinal);
            if (colon <= 0 || !Cicero.Emulator.Traces.Importers.TraceImport.Formats.Contains(value[..colon]))
            {
                errors.WriteLine($"error: --sweep-trace: '{value}' is not FORMAT:PATH with FORMAT one of {string.Join(", ", Cicero.Emulator.Traces.Importers.TraceImport.Formats)}.");
                return InvalidArguments;
            }

            var format = value[..colon];
            sweep.Add(new SweepTrace(Path.GetFileNameWithoutExtension(value[(colon + 1)..]), format, value[(colon + 1)..]));
        }

        if (sweep.Count == 0)
        {
            sweep.AddRange(ReproductionSettings.DefaultSweepTraces(Path.Combine("..", "shared", "traces-public"), isReduced));
        }

        var resultsPath = parse.GetValue(results) ?? (isReduced ? ReproductionResults.ReducedDirectory : ReproductionResults.FullDirectory);

        var settings = new ReproductionSettings
        {
            SweepTraces = sweep,
            Reduced = isReduced,
            BlockTracePath = tracePath,
            Progress = output,
            Sections = parse.GetValue(sectionIds) is { Length: > 0 } chosen ? chosen.ToHashSet(StringComparer.Ordinal) : null,
        };
        var clock = Stopwatch.StartNew();
        var sections = new List<ReproductionSection>();
        (string Name, Func<ReproductionSettings, IReadOnlyList<ReproductionSection>> Run)[] all =
        [
            ("c3", C3Study.Run), ("deadline", DeadlineStudy.Run), ("sweep", DeadlineSweep.Run), ("scenarios", ScenarioStudy.Run),
        ];
        foreach (var (name, run) in all.Where(s => studies.Contains(s.Name)))
        {
            var done = run(settings);
            sections.AddRange(done);

            // Each study's results are written as soon as it ends, so a later failure does not lose an hour of runs.
            foreach (var section in done)
            {
                ReproductionResults.Write(resultsPath, section);
            }

            output.WriteLine($"Wrote the {name} results to " + Path.GetFullPath(resultsPath));
            if (!isReduced)
            {
                try
                {
                    ReproductionPages.Render(documentPath, ReproductionResults.Read(resultsPath));
                    output.WriteLine("Rendered " + Path.GetFullPath(documentPath) + " and its tables page from the results");
                }
                catch (FormatException ex)
                {
                    errors.WriteLine("error: " + ex.Message);
                    return InvalidArguments;
                }
            }
        }

        var claims = sections.SelectMany(s => s.Claims).ToList();
        foreach (var claim in claims)
        {
            output.WriteLine($"{ReproductionDocument.Word(claim.Verdict),-14} {claim.Id}: paper {claim.Paper} | ours {claim.Ours}");
        }

        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{claims.Count(c => c.Holds)} of {claims.Count} claims hold; ran in {clock.Elapsed.TotalSeconds:0} s."));
        // An honest "fails" is a result, not an error: the command exits 0 whenever it ran. CI guards the checked claims
        // (ReproductionClaimsTests) and the committed results (ReproductionPageTests).
        return 0;
    }

    private static IEnumerable<string> SectionNames => ["c3-main", "c3-clients", "c3-skew", "c3-b", "c3-rate", "c3-variants", .. ScenarioStudy.SectionIds];

    private static string OneLine(string message) =>
        string.Join(' ', message.Split(['\r', '\n', '\t'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
}
