// SPDX-License-Identifier: Apache-2.0

using System.Text.Json.Serialization;

namespace Cicero.Emulator.Reproduction;

/// <summary>Source-generated metadata for the reproduction's result files (options set where it is created).</summary>
[JsonSerializable(typeof(ReproductionSection))]
internal sealed partial class ReproductionJsonContext : JsonSerializerContext
{
}
