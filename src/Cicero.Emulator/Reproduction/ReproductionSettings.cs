// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reproduction;

/// <summary>How large the reproduction runs are, and where the public trace is.</summary>
public sealed class ReproductionSettings
{
    /// <summary>Gets or sets a value indicating whether to run at reduced size (CI): fewer seeds and shorter scenarios.</summary>
    public bool Reduced { get; set; }

    /// <summary>Gets or sets the Meta block trace sample (block_traces_1.csv) for Table 5.4; the section is skipped when null.</summary>
    public string? BlockTracePath { get; set; }

    /// <summary>Gets or sets the public traces of the Table 5.4 sweep; traces whose file is missing are left out. None by default.</summary>
    public IReadOnlyList<SweepTrace> SweepTraces { get; set; } = [];

    /// <summary>
    /// Gets the Table 5.4 sweep's traces under a folder laid out as shared/traces-public: Meta's block sample, both kv
    /// samples and Azure's LLM code trace, each repeated to the sweep's minimum length; at reduced size the block sample only (Azure's 8,819 requests would triple CI's
    /// cost). The command and CI's comparison both take their traces from here, so their reduced runs are the same run.
    /// </summary>
    /// <param name="publicTraces">The public traces' folder.</param>
    /// <param name="reduced">Whether the run is at reduced (CI) size.</param>
    /// <returns>The traces, whether or not their files exist (the sweep leaves missing ones out).</returns>
    public static IReadOnlyList<SweepTrace> DefaultSweepTraces(string publicTraces, bool reduced)
    {
        var meta = Path.Combine(publicTraces, "meta-cachelib-traces");
        var block = new SweepTrace("block_traces_1", "meta-block", Path.Combine(meta, "block_traces_1.csv"));
        return reduced
            ? [block]
            :
            [
                block,
                new SweepTrace("kv_traces_1", "meta-kv", Path.Combine(meta, "kv_traces_1.csv")),
                new SweepTrace("kv_traces_2", "meta-kv", Path.Combine(meta, "kv_traces_2.csv")),
                new SweepTrace("AzureLLMInferenceTrace_code", "azure-llm", Path.Combine(publicTraces, "azure-public-dataset", "AzureLLMInferenceTrace_code.csv")),
            ];
    }

    /// <summary>Gets the seeds of every configuration in the Table 5.4 sweep: 5, or 3 at reduced size.</summary>
    public int SweepSeeds => Reduced ? 3 : 5;

    /// <summary>Gets or sets how many runs may go at once (seeds of a configuration run in parallel).</summary>
    /// <value>The processor count.</value>
    public int Parallelism { get; set; } = Environment.ProcessorCount;

    /// <summary>Gets or sets the sections to run (for example <c>c3-rate</c> or <c>wu</c>); all when null.</summary>
    public IReadOnlySet<string>? Sections { get; set; }

    /// <summary>Gets or sets where progress lines go; none when null.</summary>
    public TextWriter? Progress { get; set; }

    /// <summary>Gets the seeds of every scenario section (§5.3.1, 5.3.3-5.3.5, the C3 topology), the same seeds 1..n for every configuration: 5, 3 at reduced size.</summary>
    public int ScenarioSeeds => Reduced ? 3 : 5;

    /// <summary>Gets the seeds of every C3 configuration, the same seeds 1..n for every selector: 5 (the paper's), 3 at reduced size.</summary>
    public int C3Seeds => Reduced ? 3 : 5;
}
