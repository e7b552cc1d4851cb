import { endpoint } from "../api/endpoint.js";

/** `GET /ok`: liveness. */
export const ok = endpoint("/ok", { method: "GET" }, () => ({ ok: true }));
