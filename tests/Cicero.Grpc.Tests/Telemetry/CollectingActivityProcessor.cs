// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Diagnostics;
using OpenTelemetry;

namespace Cicero.Grpc.Tests.Telemetry;

/// <summary>Keeps every span the tracer provider ends, in place of OpenTelemetry.Exporter.InMemory.</summary>
internal sealed class CollectingActivityProcessor : BaseProcessor<Activity>
{
    public ConcurrentBag<Activity> Ended { get; } = [];

    public override void OnEnd(Activity data) => Ended.Add(data);
}
