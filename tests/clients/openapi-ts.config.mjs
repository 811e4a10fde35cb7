// @hey-api/openapi-ts: the TypeScript client of tests/clients (fetch client, types,
// zod schemas, and SDK functions that validate every request and response with them).
// tests/clients/test_generated_clients.py sets REFEREE_OPENAPI and REFEREE_TS_OUT.
export default {
  input: process.env.REFEREE_OPENAPI ?? 'openapi.yaml',
  output: process.env.REFEREE_TS_OUT ?? 'tests/clients/gen',
  plugins: [
    '@hey-api/client-fetch',
    '@hey-api/typescript',
    'zod',
    { name: '@hey-api/sdk', validator: true },
  ],
};
