// SPDX-License-Identifier: Apache-2.0
namespace Cicero.Grpc;
