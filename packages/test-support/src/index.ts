// oidc-provider ships no types; its ambient declaration must reach every program that compiles
// this package's source (the importing packages' tsconfigs do not list it).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider.d.ts" />
// Shared test parts. Test code only: never imported by a published package's src.
export { Browser } from "./browser.js";
export { CLIENT_ID, CLIENT_SECRET, startIdP, type IdPAccount, type TestIdP } from "./oidc-idp.js";
export { FAULT_MESSAGE, faultyAdapter, type AdapterFault, type FaultSwitch } from "./faulty-adapter.js";
export { freePort, stopChild, waitForOk } from "./child-process.js";
