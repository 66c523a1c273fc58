/** Credentials a scenario hands the client in MCP_CONFORMANCE_CONTEXT (pre-registration, client credentials). */
type ScenarioContext = {
  readonly client_id?: string;
  readonly client_secret?: string;
  /** auth/client-credentials-jwt: the key to sign private_key_jwt assertions with, and its algorithm. */
  readonly private_key_pem?: string;
  readonly signing_algorithm?: string;
  /** auth/cross-app-access-complete-flow: the identity provider, echo-agent's client there, and the person's ID token. */
  readonly idp_token_endpoint?: string;
  readonly idp_client_id?: string;
  readonly idp_id_token?: string;
};

/** The grant echo-agent uses in a scenario: the headless ones where the suite's scenario name says so, else a person's. */
export function conformanceGrant(scenario: string): 'authorization_code' | 'client_credentials' | 'cross_app_access' {
  if (scenario.startsWith('auth/client-credentials')) return 'client_credentials';
  if (scenario.startsWith('auth/cross-app-access')) return 'cross_app_access';
  return 'authorization_code';
}

/** The client_id the suite's auth/basic-cimd scenario checks for. */
const conformanceClientMetadataUrl = 'https://conformance-test.local/client-metadata.json';

/**
 * The config file echo-agent runs a client scenario with: the scenario's server as `mcp.servers.conformance`
 * (Streamable HTTP, read_only so no approval card waits for a person at the terminal), its tools allowed. An `auth/`
 * scenario adds `oauth`: client_credentials when the scenario hands a client secret or a private key for it, cross-app
 * access with the identity provider and ID token it hands, else the
 * authorization-code grant (pre-registered when it hands a client id, else a client ID metadata document URL where the
 * authorization server supports them, else registered dynamically).
 */
export function conformanceServerYaml(input: { readonly url: string; readonly scenario: string; readonly context?: string }): string {
  const context = (input.context ? JSON.parse(input.context) : {}) as ScenarioContext;
  const oauth = input.scenario.startsWith('auth/')
    ? [
        '      oauth:',
        `        grant: ${conformanceGrant(input.scenario)}`,
        ...(context.client_id === undefined ? [] : [`        clientId: ${JSON.stringify(context.client_id)}`]),
        ...(context.client_secret === undefined ? [] : [`        clientSecret: ${JSON.stringify(context.client_secret)}`]),
        ...(context.private_key_pem === undefined ? [] : [`        privateKey: ${JSON.stringify(context.private_key_pem)}`]),
        ...(context.signing_algorithm === undefined ? [] : [`        privateKeyAlgorithm: ${JSON.stringify(context.signing_algorithm)}`]),
        ...(context.idp_token_endpoint === undefined ? [] : [`        idpTokenEndpoint: ${JSON.stringify(context.idp_token_endpoint)}`]),
        ...(context.idp_client_id === undefined ? [] : [`        idpClientId: ${JSON.stringify(context.idp_client_id)}`]),
        ...(context.idp_id_token === undefined ? [] : [`        idToken: ${JSON.stringify(context.idp_id_token)}`]),
      ]
    : [];
  const personAuthorizes = input.scenario.startsWith('auth/') && conformanceGrant(input.scenario) === 'authorization_code';
  return [
    'approvals:',
    '  explain: false',
    'mcp:',
    '  retryMaxSeconds: 1',
    // The client ID metadata document URL the suite expects (auth/basic-cimd); its authorization server takes it as the
    // client_id without fetching it. Servers that do not advertise client ID metadata documents get dynamic registration.
    ...(personAuthorizes ? [`  oauthClientMetadataUrl: ${JSON.stringify(conformanceClientMetadataUrl)}`] : []),
    '  servers:',
    '    conformance:',
    `      url: ${JSON.stringify(input.url)}`,
    '      risk: read_only',
    '      startupTimeoutSeconds: 20',
    ...oauth,
    'tools:',
    '  alsoAllow: ["conformance__*"]',
    '',
  ].join('\n');
}
