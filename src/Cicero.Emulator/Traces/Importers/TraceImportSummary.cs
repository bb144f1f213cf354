// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces.Importers;

/// <summary>What an import wrote.</summary>
/// <param name="Requests">Requests written.</param>
/// <param name="Tenants">Distinct tenants.</param>
/// <param name="Operations">Distinct operations.</param>
/// <param name="LastArrivalMs">The last request's arrival (the first's is 0), ms; 0 for an empty trace.</param>
/// <param name="RequestBytes">The sum of request bytes.</param>
/// <param name="ResponseBytes">The sum of response bytes.</param>
public readonly record struct TraceImportSummary(long Requests, int Tenants, int Operations, double LastArrivalMs, long RequestBytes, long ResponseBytes);
