// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using Cicero.Diagnostics;
using OpenTelemetry;

namespace Cicero.SampleService;

/// <summary>Counts the spans Cicero ended.</summary>
public sealed class SpanCounter : BaseProcessor<Activity>
{
    private int _count;

    /// <summary>Gets the number of Cicero spans ended so far.</summary>
    public int Count => Volatile.Read(ref _count);

    /// <inheritdoc />
    public override void OnEnd(Activity data)
    {
        if (data?.Source.Name == CiceroTelemetry.Name)
        {
            Interlocked.Increment(ref _count);
        }
    }
}
