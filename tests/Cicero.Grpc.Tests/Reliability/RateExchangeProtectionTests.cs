// SPDX-License-Identifier: Apache-2.0

using System.Security.Claims;
using System.Text.Encodings.Web;
using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.RateExchange.Protocol;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.RateAdaptation;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Issue 8 item 5, second half: with <c>RateExchange.AuthorizationPolicy</c> set, the rate-exchange endpoint answers
/// only callers the policy admits, over a real Kestrel server. (The shared-token variant is in
/// <c>Integration/RateExchangeTests</c>.) The test scheme stands in for mTLS: it authenticates a caller presenting a
/// credential header and rejects everyone else.
/// </summary>
public sealed class RateExchangeProtectionTests
{
    private const string SchemeName = "test-mesh";
    private const string Policy = "mesh-only";
    private const string CredentialHeader = "x-test-credential";
    private const string MeshRole = "mesh";

    [Fact]
    public async Task AuthorizationPolicy_RefusesUnauthenticatedAndUnauthorizedCallers_AnswersMeshMembers()
    {
        await using var host = await TestHost.StartAsync(
            s =>
            {
                s.AddAuthentication(SchemeName).AddScheme<AuthenticationSchemeOptions, CredentialHeaderHandler>(SchemeName, null);
                s.AddAuthorization(o => o.AddPolicy(Policy, p => p.RequireAuthenticatedUser().RequireRole(MeshRole)));
                s.AddCicero(o =>
                {
                    o.ServiceName = "leaf";
                    o.RateExchange.AuthorizationPolicy = Policy;
                    o.RateExchange.RunControlLoop = false;
                });
            },
            app =>
            {
                app.UseAuthentication();
                app.UseAuthorization();
                app.MapCiceroRateExchange();
            });
        using var channel = RpcChannel.ForAddress(host.Address);
        var client = channel.CreateCallInvoker();

        // Cicero's own client, which sends no credential: refused before the service runs.
        using var anonymous = new GrpcDownstreamRateSource();
        var unauthenticated = await Assert.ThrowsAsync<RpcException>(async () =>
            await anonymous.GetAdmissionRatesAsync(new DownstreamInstance("leaf", host.Address.ToString()), "caller", CancellationToken.None));
        Assert.Equal(StatusCode.Unauthenticated, unauthenticated.StatusCode);

        // A credential the scheme rejects, and an authenticated caller outside the mesh role.
        var rejected = await Assert.ThrowsAsync<RpcException>(async () => await QueryAsync(client, "garbage"));
        Assert.Equal(StatusCode.Unauthenticated, rejected.StatusCode);
        var outsider = await Assert.ThrowsAsync<RpcException>(async () => await QueryAsync(client, "outsider"));
        Assert.Equal(StatusCode.PermissionDenied, outsider.StatusCode);

        // A mesh member gets its answer, so the refusals above are the policy's and not a broken endpoint.
        var answer = await QueryAsync(client, MeshRole);
        Assert.Equal(InstanceIds.FromAddress(host.Address), answer.Instance);
    }

    private static Task<GetAdmissionRatesResponse> QueryAsync(CallInvoker client, string credential) =>
        client.AsyncUnaryCall(
            RateExchangeMethods.GetAdmissionRates,
            new CallOptions(new Metadata().Add(CredentialHeader, credential), TimeProvider.System.GetUtcNow().AddSeconds(10)),
            new GetAdmissionRatesRequest { Caller = "caller" }).ResponseAsync;

    /// <summary>Authenticates <c>mesh</c> and <c>outsider</c> credentials (the first with the mesh role); fails any other.</summary>
    private sealed class CredentialHeaderHandler(IOptionsMonitor<AuthenticationSchemeOptions> options, ILoggerFactory logger, UrlEncoder encoder)
        : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
    {
        protected override Task<AuthenticateResult> HandleAuthenticateAsync()
        {
            var credential = Request.Headers[CredentialHeader].ToString();
            if (credential is not (MeshRole or "outsider"))
            {
                return Task.FromResult(credential.Length == 0 ? AuthenticateResult.NoResult() : AuthenticateResult.Fail("Unknown credential."));
            }

            Claim[] claims = credential == MeshRole ? [new(ClaimTypes.Name, "peer"), new(ClaimTypes.Role, MeshRole)] : [new(ClaimTypes.Name, "outsider")];
            var principal = new ClaimsPrincipal(new ClaimsIdentity(claims, SchemeName));
            return Task.FromResult(AuthenticateResult.Success(new AuthenticationTicket(principal, SchemeName)));
        }
    }
}
