// The peer of `tests/bench/run.sh oauth`: node oidc-provider (an OpenID-certified server)
// configured like the Gatehouse side — in-memory adapter, RS256 and ES256 keys, a confidential
// client_credentials client, JWT (RS256 or ES256) and opaque access tokens chosen by resource
// indicator, introspection. Prints the port on stdout.
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
const RESOURCES = {
    'https://api.example.test/rs256': { accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } },
    'https://api.example.test/es256': { accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } },
    'https://api.example.test/opaque': { accessTokenFormat: 'opaque' },
};

const port = Number(process.env.PORT || 0) || 3000 + Math.floor(Math.random() * 20000);
const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
    clients: [{
        client_id: 'bench', client_secret: process.env.SECRET || 'bench-secret-bench-secret-bench-secret',
        grant_types: ['client_credentials'], redirect_uris: [], response_types: [],
        token_endpoint_auth_method: 'client_secret_basic', scope: 'api',
    }],
    jwks: { keys: [{ ...rsa, kid: 'rsa-1', alg: 'RS256', use: 'sig' }, { ...ec, kid: 'ec-1', alg: 'ES256', use: 'sig' }] },
    scopes: ['api'],
    features: {
        clientCredentials: { enabled: true },
        introspection: { enabled: true },
        revocation: { enabled: true },
        devInteractions: { enabled: false },
        resourceIndicators: {
            enabled: true,
            defaultResource: () => 'https://api.example.test/rs256',
            useGrantedResource: () => true,
            getResourceServerInfo: (ctx, resource) => {
                const info = RESOURCES[resource];
                if (!info)
                    throw new Error('unknown resource');
                return { scope: 'api', audience: resource, ...info };
            },
        },
    },
});
provider.proxy = false;
provider.listen(port, '127.0.0.1', () => process.stdout.write(`${port}\n`));
