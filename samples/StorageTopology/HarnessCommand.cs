// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;

namespace Cicero.StorageTopology;

/// <summary>
/// <c>harness</c>: a scenario run with the instruments of the network-namespace harness (eng/netns/run.sh, decision
/// 0015): a per-second monitor file, rate exchange and listening on offset ports, and a slow-down on SIGUSR1. They
/// exist so that a script can cut, delay and watch one process from outside; no user sets them, so they are not on
/// the user's command line and the command is hidden from <c>--help</c>.
/// </summary>
internal static class HarnessCommand
{
    public const string Name = "harness";

    /// <summary>Creates the hidden command; <paramref name="run"/> runs the settings it parses, as the root command does.</summary>
    public static Command Create(Func<RunSettings, int> run)
    {
        var monitor = new Option<string?>("--monitor")
        {
            Description = "Live runner: append each hosted instance's served requests, σ and the process's threads, handles and memory to this CSV file every second.",
        };
        var rateExchangePort = OptionValues.OptionalInt("--rate-exchange-port-offset", "Live runner: exchange rates on each instance's address port plus this offset, not on the address itself, so a firewall can cut rate exchange alone.", minimum: 1);
        var listenPort = OptionValues.OptionalInt("--listen-port-offset", "Live runner: hosted instances listen this far above their address's port, where a proxy on the address forwards to them.", minimum: 1);
        var slowFactor = OptionValues.OptionalPositive("--slow-factor", "Live runner, --host: SIGUSR1 multiplies the hosted instances' service times by this factor, SIGUSR2 restores them.");

        var command = new Command(Name, "A scenario run with the network-namespace harness's instruments (eng/netns); not for users.")
        {
            Hidden = true,
        };
        var options = new RunOptions();
        options.AddTo(command);
        command.Options.Add(monitor);
        command.Options.Add(rateExchangePort);
        command.Options.Add(listenPort);
        command.Options.Add(slowFactor);
        command.SetAction(parse => run(options.Bind(parse, new HarnessSettings(
            parse.GetValue(monitor), parse.GetValue(rateExchangePort), parse.GetValue(listenPort) ?? 0, parse.GetValue(slowFactor)))));
        return command;
    }
}
