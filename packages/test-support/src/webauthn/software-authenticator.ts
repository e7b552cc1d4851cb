import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { encodeCbor } from "./cbor.js";

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");
const fromB64url = (text: string): Buffer => Buffer.from(text, "base64url");
const sha256 = (data: Uint8Array | string): Buffer => createHash("sha256").update(data).digest();

/** WebAuthn authenticator-data flags (WebAuthn L3 §6.1). */
const FLAGS = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 };

/** What the authenticator puts into the client data besides the challenge. */
export interface AuthenticatorSetup {
  /** The origin the "browser" reports in clientDataJSON. */
  origin: string;
  /** The RP id whose hash goes into the authenticator data. @default the options' rp.id / rpId */
  rpID?: string;
  /** 16-byte AAGUID as a UUID string. @default all zeros */
  aaguid?: string;
  /** Reports the credential as backed up (multi-device). @default false */
  backedUp?: boolean;
  /** Transports reported at registration. @default ["internal"] */
  transports?: string[];
  /** Sets the UV flag. @default true */
  userVerified?: boolean;
}

/** One credential the authenticator holds. */
export interface SoftwareCredential {
  id: Uint8Array;
  privateKey: KeyObject;
  /** COSE_Key of the public key (EC2, P-256, ES256). */
  cosePublicKey: Uint8Array;
  userHandle: string;
  /** The signature counter; each assertion raises it by `step` first. */
  counter: number;
  step: number;
}

/**
 * A software passkey: P-256 / ES256 credentials, attestation `none`, assertions signed over
 * `authenticatorData ‖ SHA-256(clientDataJSON)` as WebAuthn §6.3.3 says. It plays browser and
 * authenticator at once, answering the JSON options the server sends with the JSON response
 * `@simplewebauthn/browser` would post.
 */
export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];

  constructor(readonly setup: AuthenticatorSetup) {}

  private authData(rpID: string, counter: number, attested?: SoftwareCredential): Uint8Array {
    let flags = FLAGS.UP | (this.setup.userVerified === false ? 0 : FLAGS.UV);
    if (this.setup.backedUp) flags |= FLAGS.BE | FLAGS.BS;
    if (attested) flags |= FLAGS.AT;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts: Uint8Array[] = [sha256(rpID), Uint8Array.of(flags), count];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(attested.id.length);
      const aaguid = Buffer.from((this.setup.aaguid ?? "00000000-0000-0000-0000-000000000000").replaceAll("-", ""), "hex");
      parts.push(aaguid, length, attested.id, attested.cosePublicKey);
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin = this.setup.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** Answers `navigator.credentials.create()` for the server's creation options (JSON). */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }): Record<string, unknown> {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    // RFC 9053 §7.1.1: kty 2 (EC2), alg -7 (ES256), crv 1 (P-256), x, y.
    const cose = encodeCbor(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, fromB64url(jwk.x!)],
        [-3, fromB64url(jwk.y!)],
      ]),
    );
    const credential: SoftwareCredential = {
      id: randomBytes(16),
      privateKey,
      cosePublicKey: cose,
      userHandle: options.user.id,
      counter: 0,
      step: 0,
    };
    this.credentials.push(credential);
    const rpID = this.setup.rpID ?? options.rp.id ?? "localhost";
    const attestationObject = encodeCbor({ fmt: "none", attStmt: {}, authData: this.authData(rpID, 0, credential) });
    return credentialJSON(credential, {
      clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge)),
      attestationObject: b64url(attestationObject),
      transports: this.setup.transports ?? ["internal"],
    });
  }

  /**
   * Answers `navigator.credentials.get()` with `credential` (default: the newest). The counter
   * rises by the credential's `step` first (0: an authenticator without a counter).
   */
  assert(
    options: { challenge: string; rpId?: string },
    credential: SoftwareCredential | undefined = this.credentials.at(-1),
    overrides: { origin?: string; counter?: number } = {},
  ): Record<string, unknown> {
    if (!credential) throw new Error("the authenticator holds no credential");
    credential.counter += credential.step;
    const counter = overrides.counter ?? credential.counter;
    const rpID = this.setup.rpID ?? options.rpId ?? "localhost";
    const authenticatorData = this.authData(rpID, counter);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, overrides.origin);
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.privateKey);
    return credentialJSON(credential, {
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authenticatorData),
      signature: b64url(signature),
      userHandle: credential.userHandle,
    });
  }
}

/** The `PublicKeyCredential` JSON `@simplewebauthn/browser` posts, around one ceremony's `response`. */
function credentialJSON(credential: SoftwareCredential, response: Record<string, unknown>): Record<string, unknown> {
  const id = b64url(credential.id);
  return { id, rawId: id, type: "public-key", response, clientExtensionResults: {}, authenticatorAttachment: "platform" };
}
