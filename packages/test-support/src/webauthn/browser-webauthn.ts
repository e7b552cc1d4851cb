import type { SoftwareAuthenticator } from "./software-authenticator.js";

type Bytes = ArrayBuffer | ArrayBufferView;

const toB64url = (data: Bytes): string =>
  Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength)).toString("base64url");
const toBuffer = (text: string): ArrayBuffer => {
  const bytes = Buffer.from(text, "base64url");
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
};

/** A `PublicKeyCredential` as `navigator.credentials` resolves it, around one ceremony's `response`. */
const browserCredential = (id: string, response: Record<string, unknown>) => ({
  id,
  rawId: toBuffer(id),
  type: "public-key",
  authenticatorAttachment: "platform",
  response,
  getClientExtensionResults: () => ({}),
});

interface CreateOptions {
  publicKey: { challenge: Bytes; rp: { id?: string }; user: { id: Bytes }; excludeCredentials?: Array<{ id: Bytes }> };
}
interface GetOptions {
  publicKey: { challenge: Bytes; rpId?: string; allowCredentials?: Array<{ id: Bytes }> };
}

/**
 * Gives Node the browser's WebAuthn API (`PublicKeyCredential`, `navigator.credentials`) backed
 * by `authenticator`, so browser code such as `@simplewebauthn/browser` (and client plugins
 * built on it) runs unchanged in tests. As a browser does, `create` refuses with
 * `InvalidStateError` when the authenticator holds an excluded credential and `get` with
 * `NotAllowedError` when it holds none of the allowed ones. Returns the function that removes it.
 */
export function installBrowserWebAuthn(authenticator: SoftwareAuthenticator): () => void {
  const global = globalThis as Record<string, unknown>;
  const before = { PublicKeyCredential: global.PublicKeyCredential, navigator: Object.getOwnPropertyDescriptor(globalThis, "navigator") };
  const heldIds = () => authenticator.credentials.map((c) => Buffer.from(c.id).toString("base64url"));
  const credentials = {
    async create({ publicKey }: CreateOptions) {
      const excluded = (publicKey.excludeCredentials ?? []).map((c) => toB64url(c.id));
      if (heldIds().some((id) => excluded.includes(id))) throw new DOMException("already registered", "InvalidStateError");
      const json = authenticator.register({
        challenge: toB64url(publicKey.challenge),
        rp: publicKey.rp,
        user: { id: toB64url(publicKey.user.id) },
      }) as { id: string; response: { clientDataJSON: string; attestationObject: string; transports: string[] } };
      return browserCredential(json.id, {
        clientDataJSON: toBuffer(json.response.clientDataJSON),
        attestationObject: toBuffer(json.response.attestationObject),
        getTransports: () => json.response.transports,
      });
    },
    async get({ publicKey }: GetOptions) {
      const allowed = (publicKey.allowCredentials ?? []).map((c) => toB64url(c.id));
      const credential = allowed.length
        ? authenticator.credentials.find((c) => allowed.includes(Buffer.from(c.id).toString("base64url")))
        : authenticator.credentials.at(-1);
      if (!credential) throw new DOMException("no credential", "NotAllowedError");
      const json = authenticator.assert({ challenge: toB64url(publicKey.challenge), rpId: publicKey.rpId }, credential) as {
        id: string;
        response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string };
      };
      return browserCredential(json.id, {
        clientDataJSON: toBuffer(json.response.clientDataJSON),
        authenticatorData: toBuffer(json.response.authenticatorData),
        signature: toBuffer(json.response.signature),
        userHandle: toBuffer(json.response.userHandle),
      });
    },
  };
  global.PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
    isConditionalMediationAvailable: async () => false,
  });
  Object.defineProperty(globalThis, "navigator", { value: { credentials }, configurable: true, writable: true });
  return () => {
    global.PublicKeyCredential = before.PublicKeyCredential;
    if (before.navigator) Object.defineProperty(globalThis, "navigator", before.navigator);
    else delete global.navigator;
  };
}
