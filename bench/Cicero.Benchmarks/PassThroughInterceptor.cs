// SPDX-License-Identifier: Apache-2.0

using Grpc.Core.Interceptors;

namespace Cicero.Benchmarks;

/// <summary>
/// A grpc-dotnet <see cref="Interceptor"/> that overrides nothing: what grpc-dotnet's interceptor machinery costs by
/// itself (the client's intercepting invoker, the server's interceptor pipeline), the floor under any interceptor.
/// </summary>
internal sealed class PassThroughInterceptor : Interceptor;
