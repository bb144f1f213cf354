// SPDX-License-Identifier: Apache-2.0

using System.Security.Claims;
using System.Text.Encodings.Web;
using Cicero.Grpc.Context;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.RateExchange.Protocol;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.RateAdaptation;
using Grpc.Core;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using RateExchangeService = Cicero.Grpc.RateExchange.Protocol.RateExchange;

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
        await using var host = await TestHost.StartProbeAsync(
            o => o.RateExchange.AuthorizationPolicy = Policy,
            map: app =>
            {
                app.UseAuthentication();
                app.UseAuthorization();
                app.MapCiceroRateExchange();
            },
            services: s =>
            {
                s.AddAuthentication(SchemeName).AddScheme<AuthenticationSchemeOptions, CredentialHeaderHandler>(SchemeName, null);
                s.AddAuthorization(o => o.AddPolicy(Policy, p => p.RequireAuthenticatedUser().RequireRole(MeshRole)));
            });
        using var channel = host.CreateChannel();
        var client = new RateExchangeService.RateExchangeClient(channel);

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

        // The application's own service is not behind the rate-exchange policy.
        await TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("x"));
    }

    [Fact]
    public async Task WithoutProtection_AnEntryPointTellsAnOutsiderNoAddress_AndATrustedPeerItsId()
    {
        // Mapped as the README maps it: no token, no policy, an entry point by default.
        await using var host = await TestHost.StartProbeAsync(
            o => o.IsTrustedCaller = c => c.GetHttpContext().Request.Headers.ContainsKey(CredentialHeader),
            map: app => app.MapCiceroRateExchange());
        using var channel = host.CreateChannel();
        var client = new RateExchangeService.RateExchangeClient(channel);

        var outsider = await client.GetAdmissionRatesAsync(new GetAdmissionRatesRequest { Caller = "caller" }, deadline: DateTime.UtcNow.AddSeconds(10));
        Assert.Equal(string.Empty, outsider.Instance);

        // The same call from a caller the options trust names the instance, as a peer's rate exchange needs.
        var peer = await QueryAsync(client, MeshRole);
        Assert.Equal(InstanceIds.FromAddress(host.Address), peer.Instance);

        // The application's calls from the outsider carry no instance id either (the trailers' rule).
        var call = TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("x"));
        await call;
        Assert.True(CiceroTrailers.TryRead(call.GetTrailers(), out var result), "Cicero's trailer is missing");
        Assert.Equal(string.Empty, result.Instance);
    }

    private static Task<GetAdmissionRatesResponse> QueryAsync(RateExchangeService.RateExchangeClient client, string credential) =>
        client.GetAdmissionRatesAsync(
            new GetAdmissionRatesRequest { Caller = "caller" },
            new Metadata { { CredentialHeader, credential } },
            TimeProvider.System.GetUtcNow().UtcDateTime.AddSeconds(10)).ResponseAsync;

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
