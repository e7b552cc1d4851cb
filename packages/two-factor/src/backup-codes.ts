import { generateRandomString, parseStoredJSON, symmetricDecrypt, symmetricEncrypt } from "@latchkey/core";
import type { ResolvedTwoFactorOptions } from "./options.js";

type BackupCodeSettings = ResolvedTwoFactorOptions["backupCodes"];

/** A fresh set: `amount` codes of `length` characters from a-z 0-9 A-Z, a `-` after the fifth (reference format). */
export function newBackupCodes(settings: BackupCodeSettings): string[] {
  if (settings.generate) return settings.generate();
  return Array.from({ length: settings.amount }, () => {
    const code = generateRandomString(settings.length, "a-z", "0-9", "A-Z");
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** The stored form of a list: its JSON, encrypted with the secret unless `storeBackupCodes` says otherwise. */
export async function encodeBackupCodes(codes: string[], secret: string, settings: BackupCodeSettings): Promise<string> {
  const json = JSON.stringify(codes);
  const store = settings.store;
  if (store === "encrypted") return symmetricEncrypt({ key: secret, data: json });
  if (typeof store === "object") return store.encrypt(json);
  return json;
}

/**
 * The list a stored value holds, or null when it does not decode to a list of strings. A value
 * that fails to decrypt (another secret) is a storage error and propagates, as in the reference.
 */
export async function decodeBackupCodes(stored: string, secret: string, settings: BackupCodeSettings): Promise<string[] | null> {
  const store = settings.store;
  let json = stored;
  if (store === "encrypted") json = await symmetricDecrypt({ key: secret, data: stored });
  else if (typeof store === "object") json = await store.decrypt(stored);
  const list = parseStoredJSON<unknown>(json);
  return Array.isArray(list) && list.every((code) => typeof code === "string") ? list : null;
}
