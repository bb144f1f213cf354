// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;

namespace Cicero.StorageTopology.Tests;

/// <summary>Runs the command line in this process with piped (plain) consoles, and writes synthetic traces.</summary>
internal static class InProcess
{
    public static (int ExitCode, string Out, string Err) Run(params string[] args)
    {
        using var output = new StringWriter(CultureInfo.InvariantCulture);
        using var error = new StringWriter(CultureInfo.InvariantCulture);
        var code = StorageTopologyCommand.Invoke(args, ConsoleFactory.Create(output, redirected: true, _ => null), ConsoleFactory.Create(error, redirected: true, _ => null));
        return (code, output.ToString(), error.ToString());
    }

    /// <summary>
    /// A Cicero trace of <paramref name="requests"/> requests from two tenants, <paramref name="perSecond"/> a second,
    /// each with one block-server read of <paramref name="bsMs"/> ms: made here, not taken from the repository.
    /// </summary>
    public static string Trace(TempFolder folder, int requests, double perSecond, double bsMs, string name = "synthetic.csv")
    {
        var text = new StringBuilder("#cicero-trace v1 source=test\narrival_ms,tenant,op,request_bytes,response_bytes,fanout,auth_ms,ps_ms,bs_ms\n");
        for (var i = 0; i < requests; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"{i * 1000 / perSecond},{(i % 4 == 0 ? "heavy" : "light")},get,0,4096,{(i % 4 == 0 ? 4 : 1)},0.5,0.5,{bsMs}\n");
        }

        return folder.Write(name, text.ToString());
    }

    public static string LastLine(string output) => output.TrimEnd('\n').Split('\n')[^1];

    public static string PluginPath => Path.Combine(AppContext.BaseDirectory, "CustomPolicy.Plugin.dll");
}
