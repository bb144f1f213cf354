// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Grpc;
using Cicero.Grpc.Context;
using Grpc.Core;

namespace Cicero.SampleService;

/// <summary>What a run of calls saw: how many succeeded, were dropped by Cicero, or failed otherwise.</summary>
public sealed class CallSummary
{
    /// <summary>Gets the calls that returned OK.</summary>
    public int Ok { get; private set; }

    /// <summary>Gets the calls Cicero dropped (<c>RESOURCE_EXHAUSTED</c> or <c>DEADLINE_EXCEEDED</c> with a <c>cicero-drop-reason</c> trailer).</summary>
    public int Dropped { get; private set; }

    /// <summary>Gets the calls that failed otherwise.</summary>
    public int Failed { get; private set; }

    /// <summary>Gets the last OK call's progress trailer b, if it carried one: service seconds and load.</summary>
    public (double ServiceSeconds, double Load)? LastProgress { get; private set; }

    /// <summary>
    /// Gets the instance that served the last OK call (from the <c>cicero-result-bin</c> trailer), empty when an entry
    /// point withheld it from an untrusted caller.
    /// </summary>
    public string? LastInstance { get; private set; }

    /// <summary>Gets the slowest call's duration.</summary>
    public TimeSpan Slowest { get; private set; }

    /// <summary>Gets the first drop reason or failure seen.</summary>
    public string? FirstProblem { get; private set; }

    /// <summary>Records a call's outcome.</summary>
    /// <param name="code">Its status.</param>
    /// <param name="trailers">Its trailers.</param>
    /// <param name="detail">Its status message.</param>
    /// <param name="duration">How long it took.</param>
    public void Add(StatusCode code, Metadata? trailers, string? detail, TimeSpan duration)
    {
        Slowest = duration > Slowest ? duration : Slowest;

        // snippet: trailers
        if (code == StatusCode.OK)
        {
            Ok++;

            // cicero-result-bin: the work b the call caused (with everything it called) and the instance that served it.
            var found = CiceroTrailers.TryRead(trailers, out var result);
            LastProgress = found ? (result.Progress.ServiceTime, result.Progress.Load) : null;
            LastInstance = found ? result.Instance : null;
            return;
        }

        // A call Cicero refused (RESOURCE_EXHAUSTED or DEADLINE_EXCEEDED) names the reason in cicero-drop-reason.
        if (trailers?.GetValue(CiceroMetadataKeys.DropReason) is { } reason)
        {
            Dropped++;
            FirstProblem ??= $"dropped ({code}): {reason} ({detail})";
        }
        else
        {
            Failed++;
            FirstProblem ??= $"{code}: {detail}";
        }
        // end snippet
    }

    /// <summary>Describes the run in one line.</summary>
    /// <returns>The description.</returns>
    public override string ToString()
    {
        var total = Ok + Dropped + Failed;
        var progress = LastProgress is { } b
            ? string.Create(CultureInfo.InvariantCulture, $"progress trailer b = {b.ServiceSeconds * 1000:F1} ms service time, load {b.Load:F4}")
            : "no progress trailer";
        var line = string.Create(
            CultureInfo.InvariantCulture,
            $"{Ok}/{total} ok, {Dropped} dropped, {Failed} failed; admitted {(total == 0 ? 0 : 100.0 * Ok / total):F0}%; slowest {Slowest.TotalMilliseconds:F0} ms; {progress}; served by {Served}");
        return FirstProblem is null ? line : $"{line}; first problem: {FirstProblem}";
    }

    private string Served => LastInstance switch
    {
        null => "?",
        "" => "(withheld from untrusted callers)",
        var instance => instance,
    };
}
