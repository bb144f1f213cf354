// SPDX-License-Identifier: Apache-2.0

using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Hosting;

/// <summary>Configures Cicero after <c>AddCicero</c>: resources, policies, downstream services, classifier.</summary>
public interface ICiceroBuilder
{
    /// <summary>Gets the service collection.</summary>
    IServiceCollection Services { get; }
}
