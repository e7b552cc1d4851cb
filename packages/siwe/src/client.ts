// Browser-safe entry (`@latchkey/siwe/client`): the routes as `@latchkey/client` methods.
// Type-only imports, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult } from "@latchkey/client";

/** What `/siwe/verify` answers. */
export interface SiweVerifyAnswer {
  token: string;
  success: boolean;
  user: { id: string; walletAddress: string; chainId: number };
}

/** The methods the client gains, under the reference client's names (`authClient.siwe.*`). */
export interface SiweClientMethods {
  siwe: {
    /** `POST /siwe/nonce`: a nonce to put in the message the wallet signs. */
    nonce(): Promise<ClientResult<{ nonce: string }>>;
    /** `POST /siwe/get-nonce`: the same, under the older path. */
    getNonce(): Promise<ClientResult<{ nonce: string }>>;
    /** `POST /siwe/verify`: signs in with the signed message. */
    verify(body: {
      message: string;
      signature: string;
      email?: string;
    }): Promise<ClientResult<SiweVerifyAnswer>>;
  };
}

/**
 * The client plugin for `siwe()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [siweClient()] });
 * const { data } = await client.siwe.nonce();
 */
export const siweClient = (): ClientPlugin<SiweClientMethods> & { id: "siwe" } => ({
  id: "siwe",
  methods: (call: Call) => ({
    siwe: {
      nonce: () => call("/siwe/nonce", { method: "POST" }),
      getNonce: () => call("/siwe/get-nonce", { method: "POST" }),
      verify: (body) => call("/siwe/verify", { method: "POST", body }),
    },
  }),
});
