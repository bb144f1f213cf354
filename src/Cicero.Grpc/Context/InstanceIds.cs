// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Context;

/// <summary>Instance ids are addresses in one normal form (<c>scheme://host:port</c>), so callers and callees agree.</summary>
public static class InstanceIds
{
    /// <summary>Gets the instance id of the server at an address.</summary>
    /// <param name="address">The address.</param>
    /// <returns>E.g. <c>http://127.0.0.1:5001</c>.</returns>
    public static string FromAddress(Uri address)
    {
        ArgumentNullException.ThrowIfNull(address);
        return address.GetLeftPart(UriPartial.Authority);
    }
}
