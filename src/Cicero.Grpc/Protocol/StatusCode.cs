// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Protocol;

/// <summary>The gRPC status codes, with the values of the gRPC specification.</summary>
public enum StatusCode
{
    /// <summary>Not an error.</summary>
    OK = 0,

    /// <summary>The operation was cancelled, typically by the caller.</summary>
    Cancelled = 1,

    /// <summary>Unknown error.</summary>
    Unknown = 2,

    /// <summary>The client specified an invalid argument, such as a malformed header.</summary>
    InvalidArgument = 3,

    /// <summary>The deadline expired before the operation could complete.</summary>
    DeadlineExceeded = 4,

    /// <summary>Some requested entity was not found.</summary>
    NotFound = 5,

    /// <summary>The entity the client attempted to create already exists.</summary>
    AlreadyExists = 6,

    /// <summary>The caller does not have permission to execute the operation.</summary>
    PermissionDenied = 7,

    /// <summary>A resource has been exhausted: Cicero answers this when it drops a request.</summary>
    ResourceExhausted = 8,

    /// <summary>The system is not in a state required for the operation.</summary>
    FailedPrecondition = 9,

    /// <summary>The operation was aborted.</summary>
    Aborted = 10,

    /// <summary>The operation was attempted past the valid range.</summary>
    OutOfRange = 11,

    /// <summary>The operation is not implemented or not supported.</summary>
    Unimplemented = 12,

    /// <summary>Internal error.</summary>
    Internal = 13,

    /// <summary>The service is currently unavailable; retrying may succeed.</summary>
    Unavailable = 14,

    /// <summary>Unrecoverable data loss or corruption.</summary>
    DataLoss = 15,

    /// <summary>The request does not have valid authentication credentials.</summary>
    Unauthenticated = 16,
}
