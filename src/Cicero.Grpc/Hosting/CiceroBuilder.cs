// SPDX-License-Identifier: Apache-2.0

using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Hosting;

/// <summary>The <see cref="ICiceroBuilder"/> returned by <c>AddCicero</c>.</summary>
internal sealed class CiceroBuilder(IServiceCollection services) : ICiceroBuilder
{
    public IServiceCollection Services { get; } = services;
}
