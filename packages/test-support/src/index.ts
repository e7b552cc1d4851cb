/// <reference path="./oidc-provider.d.ts" />
// Shared test parts. Test code only: never imported by a published package's src.
export { Browser } from "./browser.ts";
export { CLIENT_ID, CLIENT_SECRET, startIdP, type IdPAccount, type TestIdP } from "./oidc-idp.ts";
