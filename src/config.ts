/** What the handler needs to know, the same on every host. */
export interface AppConfig {
  readonly limits: {
    /** Largest request body accepted, in bytes. */
    readonly maxBodyBytes: number;
    /** Longest title accepted, in Unicode code points. */
    readonly maxTitleLength: number;
    /** Most items the list holds; creating one more answers 507. */
    readonly maxItems: number;
  };
  readonly sse: {
    readonly heartbeatSeconds: number;
    readonly replayEvents: number;
    readonly maxClients: number;
  };
}

/** The defaults CONTRACT.md names; `config/prod.yaml` keeps them. */
export const DEFAULT_APP_CONFIG: AppConfig = {
  limits: { maxBodyBytes: 16384, maxTitleLength: 1000, maxItems: 10000 },
  sse: { heartbeatSeconds: 15, replayEvents: 1000, maxClients: 10000 },
};
