// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces.Importers;

/// <summary>Options of <see cref="AzureLlmTraceImporter"/>.</summary>
public sealed class AzureLlmImportOptions
{
    /// <summary>Gets or sets the tenant of every request; when omitted, the input's file name without extension (sanitized).</summary>
    public string? Tenant { get; set; }

    /// <summary>Gets or sets the operation of every request.</summary>
    /// <value>"infer".</value>
    public string Operation { get; set; } = "infer";

    /// <summary>Gets or sets how many bytes a token stands for, to turn token counts into request and response sizes.</summary>
    /// <value>4, a common average for English text and code with byte-pair encodings.</value>
    public int BytesPerToken { get; set; } = 4;
}
