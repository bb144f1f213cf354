// SPDX-License-Identifier: Apache-2.0
// One unary call from grpc-js, as a Node.js client of a Cicero service makes it. The request arrives serialized (the
// test builds it with the C# generated types), so no .proto loading is needed here.
//   node call.js <address host:port> <method /pkg.Service/Method> <request base64> <headers JSON> <deadline ms>
// Header values are sent verbatim, -bin ones included: a value that is not valid base64 is what a foreign proxy or
// client may send, and grpc-js only encodes Buffers, so a string is placed as is.
// Prints one JSON line: { code, details, response (base64) }.
'use strict';
const grpc = require('@grpc/grpc-js');

const [address, method, requestBase64, headersJson, deadlineMs] = process.argv.slice(2);
const client = new grpc.Client(address, grpc.credentials.createInsecure());
const metadata = new grpc.Metadata();
for (const [key, value] of Object.entries(JSON.parse(headersJson))) {
  // Metadata.set refuses a string for a -bin key; the wire form is what the test is about.
  metadata.internalRepr.set(key.toLowerCase(), [value]);
}

const identity = (b) => b;
const deadline = new Date(Date.now() + Number(deadlineMs));
client.makeUnaryRequest(method, identity, identity, Buffer.from(requestBase64, 'base64'), metadata, { deadline }, (error, response) => {
  const result = error
    ? { code: error.code, details: error.details, response: '' }
    : { code: 0, details: '', response: response.toString('base64') };
  process.stdout.write(JSON.stringify(result) + '\n');
  client.close();
});
