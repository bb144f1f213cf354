// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using Cicero.Grpc.Configuration;
using Cicero.Policies.Scheduling;
using Microsoft.Extensions.Options;

namespace Cicero.SampleService;

/// <summary>The sample's command line: the catalog (default), <c>storefront</c>, <c>call</c> and <c>self-test</c>.</summary>
public static class SampleCommands
{
    private const string TokenVariable = "CICERO_RATE_TOKEN";

    /// <summary>Creates the root command.</summary>
    /// <returns>The command.</returns>
    public static RootCommand Create()
    {
        var port = PortOption(5080);
        var token = TokenOption();
        var isInternal = new Option<bool>("--internal")
        {
            Description = "Only services inside the mesh call this one: trust the Cicero context they send (IsEntryPoint = false).",
        };
        var capacity = new Option<int>("--db-capacity")
        {
            Description = "Database connections (the 'db' resource's capacity).",
            DefaultValueFactory = _ => 4,
        };
        var scheduler = new Option<string>("--db-scheduler")
        {
            Description = "Scheduler ordering the waiters for a connection (fifo, drr, edf, lstf, ...).",
            DefaultValueFactory = _ => SubtaskSchedulerNames.EarliestDeadlineFirst,
        };

        var root = new RootCommand("Cicero sample: runs the catalog gRPC service (Catalog/GetItem) with Cicero adopted.")
        {
            port, token, isInternal, capacity, scheduler, CreateStorefront(), CreateCall(), CreateSelfTest(),
        };
        root.SetAction((parse, cancellationToken) => ServeAsync(
            "catalog",
            Program.BuildCatalog,
            new ServerSettings
            {
                Port = parse.GetValue(port),
                Internal = parse.GetValue(isInternal),
                RateExchangeToken = parse.GetValue(token),
                DatabaseCapacity = parse.GetValue(capacity),
                DatabaseScheduler = parse.GetValue(scheduler)!,
            },
            cancellationToken));
        return root;
    }

    private static Command CreateStorefront()
    {
        var port = PortOption(5081);
        var token = TokenOption();
        var catalog = new Option<string[]>("--catalog")
        {
            Description = "The catalog instances to call (repeat for several; c3 balances over them).",
            DefaultValueFactory = _ => ["http://127.0.0.1:5080"],
            AllowMultipleArgumentsPerToken = true,
        };
        var manualChannel = new Option<bool>("--manual-channel")
        {
            Description = "Build the catalog's channel by hand (GrpcChannel + CiceroClientInterceptor) instead of with AddGrpcClient.",
        };
        var command = new Command("storefront", "Runs the storefront (Storefront/GetPage): an entry point that fetches items from the catalog.")
        {
            port, token, catalog, manualChannel,
        };
        command.SetAction((parse, cancellationToken) => ServeAsync(
            "storefront",
            StorefrontServer.Build,
            new ServerSettings
            {
                Port = parse.GetValue(port),
                RateExchangeToken = parse.GetValue(token),
                CatalogAddresses = parse.GetValue(catalog)!,
                ManualChannel = parse.GetValue(manualChannel),
            },
            cancellationToken));
        return command;
    }

    private static Command CreateCall()
    {
        var address = new Argument<string[]>("address")
        {
            Description = "The service's instances, e.g. http://127.0.0.1:5080 (several: c3 balances over them).",
            Arity = ArgumentArity.OneOrMore,
        };
        address.Validators.Add(result =>
        {
            foreach (var value in result.GetValueOrDefault<string[]>() ?? [])
            {
                if (!Uri.TryCreate(value, UriKind.Absolute, out var uri) || uri.Scheme != Uri.UriSchemeHttp)
                {
                    result.AddError($"'{value}' is not an absolute http:// address (the sample speaks cleartext HTTP/2), e.g. http://127.0.0.1:5080.");
                }
            }
        });
        var calls = CallsOption(max: 10_000);
        var storefront = new Option<bool>("--storefront") { Description = "Call Storefront/GetPage instead of Catalog/GetItem." };
        var tenant = new Option<string>("--tenant")
        {
            Description = "The tenant, sent in the x-tenant header the services classify by.",
            DefaultValueFactory = _ => "tenant-a",
        };
        var command = new Command("call", "Calls a running service as an external client and prints a summary; exits 1 if a call failed other than by a Cicero drop.")
        {
            address, calls, storefront, tenant,
        };
        command.SetAction(async (parse, cancellationToken) =>
        {
            var addresses = parse.GetValue(address)!.Select(a => new Uri(a)).ToArray();
            var summary = await SampleClient.RunAsync(addresses, parse.GetValue(calls), parse.GetValue(storefront), parse.GetValue(tenant)!, cancellationToken);
            Console.WriteLine(summary);
            return summary.Failed == 0 ? 0 : 1;
        });
        return command;
    }

    private static Command CreateSelfTest()
    {
        var calls = CallsOption(max: 1_000);
        var command = new Command("self-test", "Starts the catalog and two storefronts on free loopback ports, checks their health, calls each, prints a summary; exits 0 when all is well, 1 otherwise.")
        {
            calls,
        };
        command.SetAction((parse, cancellationToken) => SelfTest.RunAsync(parse.GetValue(calls), Console.Out, cancellationToken));
        return command;
    }

    private static async Task<int> ServeAsync(string name, Func<ServerSettings, WebApplication> build, ServerSettings settings, CancellationToken cancellationToken)
    {
        using var telemetry = SampleTelemetry.Start();
        RunningService service;
        try
        {
            var app = build(settings);
            try
            {
                // Cicero validates its options when they are first resolved; resolving them before the start reports
                // a mistake here, rather than as the host's start-up failure with a stack trace.
                _ = app.Services.GetRequiredService<CiceroGrpcOptions>();
            }
            catch
            {
                await app.DisposeAsync();
                throw;
            }

            service = await RunningService.StartAsync(app, cancellationToken);
        }
        catch (OptionsValidationException e)
        {
            Console.Error.WriteLine($"error: the {name}'s Cicero options are invalid:");
            foreach (var failure in e.Failures)
            {
                Console.Error.WriteLine($"  {failure}");
            }

            return 2;
        }
        catch (IOException e)
        {
            Console.Error.WriteLine($"error: the {name} cannot listen on 127.0.0.1:{settings.Port}: {e.Message}");
            return 2;
        }

        await using (service)
        {
            Console.WriteLine($"{name} listening on {service.Address} (cleartext HTTP/2, gRPC health service); Ctrl+C stops it.");
            await service.App.WaitForShutdownAsync(cancellationToken);
        }

        return 0;
    }

    private static Option<int> PortOption(int defaultPort)
    {
        var option = new Option<int>("--port")
        {
            Description = "Port on 127.0.0.1, the only address the sample listens on (0: a free one).",
            DefaultValueFactory = _ => defaultPort,
        };
        option.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<int>() is < 0 or > 65535)
            {
                result.AddError("--port must be in [0, 65535].");
            }
        });
        return option;
    }

    private static Option<string?> TokenOption() => new("--rate-token")
    {
        Description = $"Shared token protecting the rate-exchange endpoint; defaults to ${TokenVariable}.",
        DefaultValueFactory = _ => Environment.GetEnvironmentVariable(TokenVariable),
    };

    private static Option<int> CallsOption(int max)
    {
        var option = new Option<int>("--calls")
        {
            Description = $"Calls to make (1 to {max}).",
            DefaultValueFactory = _ => 20,
        };
        option.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<int>() < 1 || result.GetValueOrDefault<int>() > max)
            {
                result.AddError($"--calls must be between 1 and {max}.");
            }
        });
        return option;
    }
}
