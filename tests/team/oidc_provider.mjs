// A real OpenID provider (the `oidc-provider` package) on 127.0.0.1 for the sign-in tests.
// It issues JWT access tokens by the client credentials grant; the `resource` parameter (RFC 8707,
// its resourceIndicators feature) becomes the token's audience, so a test can ask for a token for
// this server or for another one. Prints {"issuer": ...} on its first line when it listens.
// Run: OIDC_PROVIDER_HOME=<folder with node_modules/oidc-provider> node oidc_provider.mjs
import http from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const home = process.env.OIDC_PROVIDER_HOME;
const { default: Provider } = await import(pathToFileURL(join(home, 'node_modules/oidc-provider/lib/index.js')));

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'team-client',
      client_secret: 'team-client-secret',
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: 'mcp:tools',
    },
  ],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: 'mcp:tools',
        accessTokenFormat: 'jwt',
        accessTokenTTL: 300,
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
  scopes: ['openid', 'mcp:tools'],
  extraTokenClaims: () => ({ groups: ['sales', 'analysts'] }),
});
provider.proxy = false;
server.on('request', provider.callback());
process.stdout.write(JSON.stringify({ issuer }) + '\n');
