/**
 * hookloop's own declarations of the sandbox runtime configuration it builds: the subset of
 * `@anthropic-ai/sandbox-runtime`'s `SandboxRuntimeConfig` that hookloop fills in. They are written
 * here, not imported, so that hookloop's published types stand on their own: the runtime's
 * declarations pull in packages without types of their own (node-forge), which fails a consumer's
 * strict build that checks library types. shared-runtime.ts checks at compile time that these
 * shapes are still accepted by the runtime. All paths absolute.
 */

/** The network policy: only `allowedDomains` are reachable; `deniedDomains` win over them. */
export interface RuntimeNetworkConfig {
  readonly allowedDomains: string[];
  readonly deniedDomains: string[];
  /** True: a host outside the list is refused at once instead of asked about. */
  readonly strictAllowlist?: boolean;
  readonly allowUnixSockets?: string[];
  readonly allowAllUnixSockets?: boolean;
  readonly allowLocalBinding?: boolean;
  readonly httpProxyPort?: number;
  readonly socksProxyPort?: number;
}

/** The filesystem policy of a wrapped command: deny wins over allow, also for paths that do not exist yet. */
export interface RuntimeFilesystemConfig {
  readonly allowWrite: string[];
  readonly denyWrite: string[];
  readonly denyRead: string[];
  readonly allowRead?: string[];
}

/** `sandbox.credentials` as the settings give it (`envVars`, `files`: `{ name | path, mode }` entries), passed through to the runtime. */
export type RuntimeCredentials = Readonly<Record<string, unknown>>;

/** The per-call part of the configuration, which the runtime takes at every wrap. */
export interface RuntimeCallConfig {
  readonly filesystem: RuntimeFilesystemConfig;
  readonly credentials?: RuntimeCredentials;
}

/** The whole configuration the runtime starts with: network, the call policy and the runtime's own switches. */
export interface RuntimeConfig extends RuntimeCallConfig {
  readonly network: RuntimeNetworkConfig;
  /** Command patterns mapped to the paths whose violations are not reported. */
  readonly ignoreViolations?: Record<string, string[]>;
  readonly enableWeakerNestedSandbox?: boolean;
  readonly bwrapPath?: string;
  readonly socatPath?: string;
}
