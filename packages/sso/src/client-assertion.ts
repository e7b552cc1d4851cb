import { base64Decode, privateKeyJwt, type TokenEndpointAuth } from "@latchkey/core";
import type { FoundProvider } from "./oidc-provider.js";
import type { PrivateKeyMaterial, ResolvedSSOOptions } from "./options.js";

/** The asymmetric algorithms a `private_key_jwt` assertion may be signed with (RFC 7523; the reference's list). */
export const ASSERTION_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
] as const;

/** WebCrypto import parameters of a PKCS#8 key for a JWS algorithm. */
function importParameters(alg: string): RsaHashedImportParams | EcKeyImportParams | Algorithm {
  const bits = alg.slice(2);
  if (alg.startsWith("RS")) return { name: "RSASSA-PKCS1-v1_5", hash: `SHA-${bits}` };
  if (alg.startsWith("PS")) return { name: "RSA-PSS", hash: `SHA-${bits}` };
  if (alg.startsWith("ES")) return { name: "ECDSA", namedCurve: bits === "512" ? "P-521" : `P-${bits}` };
  return { name: "Ed25519" };
}

/** A PKCS#8 PEM private key as a JWK (through WebCrypto), so one signer serves both forms. */
async function pemToJwk(pem: string, alg: string): Promise<JsonWebKey> {
  const body = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "").replace(/\s+/g, "");
  const key = await crypto.subtle.importKey("pkcs8", base64Decode(body), importParameters(alg), true, [
    "sign",
  ]);
  return crypto.subtle.exportKey("jwk", key);
}

/** The key for a provider: `defaultSSO[].privateKey` first, then `resolvePrivateKey`. */
async function keyMaterial(
  found: FoundProvider,
  options: ResolvedSSOOptions,
): Promise<PrivateKeyMaterial | null> {
  const configured = options.defaultSSO.find(
    (p) => p.providerId === found.providerId && p.privateKey,
  )?.privateKey;
  if (configured) return configured;
  if (!options.resolvePrivateKey) return null;
  return (
    (await options.resolvePrivateKey({
      providerId: found.providerId,
      keyId: found.config.privateKeyId,
      issuer: found.config.issuer,
    })) ?? null
  );
}

/**
 * How the callback authenticates at the provider's token endpoint: the client secret in
 * Basic (the default) or in the form, or a `private_key_jwt` assertion (RFC 7523) signed with
 * the provider's key (`privateKeyAlgorithm` / `privateKeyId` of the stored config over the
 * key's own `algorithm` / `kid`). Null when a `private_key_jwt` provider has no usable key.
 */
export async function tokenEndpointAuth(
  found: FoundProvider,
  options: ResolvedSSOOptions,
): Promise<TokenEndpointAuth | null> {
  const { config } = found;
  if (config.tokenEndpointAuthentication !== "private_key_jwt")
    return {
      method:
        config.tokenEndpointAuthentication === "client_secret_post"
          ? "client_secret_post"
          : "client_secret_basic",
    };
  const material = await keyMaterial(found, options);
  if (!material?.privateKeyJwk && !material?.privateKeyPem) return null;
  const wanted = config.privateKeyAlgorithm ?? material.algorithm;
  const algorithm = ASSERTION_ALGORITHMS.find((a) => a === wanted);
  const jwkAlg = material.privateKeyJwk?.alg;
  const alg = algorithm ?? jwkAlg ?? "RS256";
  if (!ASSERTION_ALGORITHMS.some((a) => a === alg) || (algorithm && jwkAlg && algorithm !== jwkAlg))
    return null;
  try {
    const jwk = material.privateKeyJwk ?? (await pemToJwk(material.privateKeyPem!, alg));
    return privateKeyJwt({
      privateKeyJwk: jwk as Parameters<typeof privateKeyJwt>[0]["privateKeyJwk"],
      algorithm: alg,
      kid: config.privateKeyId ?? material.kid,
    });
  } catch {
    return null;
  }
}
