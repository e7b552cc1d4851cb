/**
 * Display names of common authenticator models by AAGUID, for labelling passkeys in a UI. An
 * AAGUID names a model, never a device or user; it is stored on each passkey row. The list is
 * short on purpose (the reference's 14 entries, names as the community list at
 * github.com/passkeydeveloper/passkey-authenticator-aaguids spells them).
 */
export const commonAuthenticatorNames: Readonly<Record<string, string>> = {
  "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
  "fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "Apple Passwords",
  "dd4ec289-e01d-41c9-bb89-70fa845d4bf2": "iCloud Keychain (Managed)",
  "08987058-cadc-4b81-b6e1-30de50dcbe96": "Windows Hello",
  "9ddd1817-af5a-4672-a2b9-3e3dd95000a9": "Windows Hello",
  "6028b017-b1d4-4c02-b4b3-afcdafc96bb2": "Windows Hello",
  "bada5566-a7aa-401f-bd96-45619a55120d": "1Password",
  "d548826e-79b4-db40-a3d8-11116f7e8349": "Bitwarden",
  "531126d6-e717-415c-9320-3d9aa6981239": "Dashlane",
  "b78a0a55-6ef8-d246-a042-ba0f6d55050c": "LastPass",
  "b84e4048-15dc-4dd0-8640-f4f60813c8af": "NordPass",
  "50726f74-6f6e-5061-7373-50726f746f6e": "Proton Pass",
  "0ea242b4-43c4-4a1b-8b17-dd6d0b6baec6": "Keeper",
  "53414d53-554e-4700-0000-000000000000": "Samsung Pass",
};

/** The all-zero AAGUID privacy-preserving authenticators report: it names nothing. */
const ANONYMOUS_AAGUID = "00000000-0000-0000-0000-000000000000";

/**
 * The display name of an authenticator model, or undefined when the AAGUID is empty, all
 * zeros or not in the list. Case and surrounding spaces are ignored.
 *
 * @example
 * const label = passkey.name || getAuthenticatorName(passkey.aaguid) || "Passkey";
 */
export function getAuthenticatorName(aaguid: string | null | undefined): string | undefined {
  const key = aaguid?.trim().toLowerCase();
  if (!key || key === ANONYMOUS_AAGUID || !Object.hasOwn(commonAuthenticatorNames, key)) return undefined;
  return commonAuthenticatorNames[key];
}
