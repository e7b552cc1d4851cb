import type { LatchkeyPlugin } from "@latchkey/core";
import type { TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMetadata } from "../src/record.ts";
import { apiKeyInstance, signedIn, type CreatedKey } from "./instance.ts";

/**
 * A stand-in for the organization plugin: its id, its `member` table and the two options this
 * plugin reads (`creatorRole`, `roles` with `authorize`). Members are rows written by the test.
 */
const organizationStandIn: LatchkeyPlugin = {
  id: "organization",
  schema: {
    member: {
      fields: {
        organizationId: { type: "string", required: true },
        userId: { type: "string", required: true },
        role: { type: "string", required: true },
        createdAt: { type: "date", required: true },
      },
    },
  },
  options: {
    creatorRole: "owner",
    roles: {
      // May read the organization's keys, nothing else.
      auditor: { authorize: (request: Record<string, string[]>) => ({ success: (request.apiKey ?? []).every((a) => a === "read") }) },
      member: { authorize: () => ({ success: false }) },
    },
  },
};

describe("organization-owned keys (references: \"organization\")", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await apiKeyInstance("sqlite", [{ configId: "default" }, { configId: "org", references: "organization" }], { plugins: [organizationStandIn] });
  });
  afterAll(() => t.close());

  const join = (userId: string, organizationId: string, role: string) =>
    t.auth.$context.internalAdapter.create("member", { userId, organizationId, role, createdAt: new Date() });

  it("the owner creates, reads, lists, updates and deletes; an auditor only reads; others are refused", async () => {
    const owner = await signedIn(t, "org-owner");
    const auditor = await signedIn(t, "org-auditor");
    const plain = await signedIn(t, "org-member");
    const stranger = await signedIn(t, "org-stranger");
    await join(owner.userId, "acme", "owner");
    await join(auditor.userId, "acme", "auditor");
    await join(plain.userId, "acme", "member");

    const created = await owner.browser.post<CreatedKey>("/api-key/create", { configId: "org", organizationId: "acme", name: "ci" });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ referenceId: "acme", configId: "org" });
    const id = created.json!.id;

    expect((await auditor.browser.get(`/api-key/get?id=${id}&configId=org`)).status).toBe(200);
    expect((await auditor.browser.get<{ total: number }>("/api-key/list?organizationId=acme")).json!.total).toBe(1);
    const denied = await auditor.browser.post("/api-key/update", { keyId: id, configId: "org", name: "x" });
    expect(denied.status).toBe(403);
    expect(denied.json).toMatchObject({ code: "INSUFFICIENT_API_KEY_PERMISSIONS" });
    expect((await plain.browser.get(`/api-key/get?id=${id}&configId=org`)).json).toMatchObject({ code: "INSUFFICIENT_API_KEY_PERMISSIONS" });
    const outsider = await stranger.browser.get(`/api-key/get?id=${id}&configId=org`);
    expect(outsider.status).toBe(403);
    expect(outsider.json).toMatchObject({ code: "USER_NOT_MEMBER_OF_ORGANIZATION" });
    expect((await stranger.browser.post("/api-key/create", { configId: "org", organizationId: "acme" })).status).toBe(403);
    // The organization's keys are not the owner's own.
    expect((await owner.browser.get<{ total: number }>("/api-key/list")).json!.total).toBe(0);

    expect((await owner.browser.post("/api-key/update", { keyId: id, configId: "org", name: "cd" })).json).toMatchObject({ name: "cd" });
    expect((await owner.browser.post("/api-key/delete", { keyId: id, configId: "org" })).json).toEqual({ success: true });
  });
});

describe("stored metadata", () => {
  it("reads the reference's JSON text, its \"null\", and legacy values stringified twice", () => {
    expect(parseMetadata('{"plan":"pro"}')).toEqual({ plan: "pro" });
    expect(parseMetadata(JSON.stringify(JSON.stringify({ plan: "pro" })))).toEqual({ plan: "pro" });
    expect(parseMetadata("null")).toBeNull();
    expect(parseMetadata(null)).toBeNull();
    expect(parseMetadata("{not json")).toBeNull();
  });
});

describe("organization-owned keys with @latchkey/organization", () => {
  let t: TestAuth;
  beforeAll(async () => {
    const { organization } = await import("@latchkey/organization");
    t = await apiKeyInstance("sqlite", [{ configId: "default" }, { configId: "org", references: "organization" }], { plugins: [organization()] });
  });
  afterAll(() => t.close());

  it("the creator of an organization manages its keys; a plain member may not; a stranger is no member", async () => {
    const owner = await signedIn(t, "real-owner");
    const member = await signedIn(t, "real-member");
    const stranger = await signedIn(t, "real-stranger");
    const org = await owner.browser.post<{ id: string }>("/organization/create", { name: "Acme", slug: "acme-keys" });
    expect(org.status).toBe(200);
    const organizationId = org.json!.id;
    const api = t.auth.api as unknown as Record<string, (a: unknown) => Promise<unknown>>;
    await api.addMember!({ body: { userId: member.userId, role: "member", organizationId } });

    const created = await owner.browser.post<CreatedKey>("/api-key/create", { configId: "org", organizationId, name: "deploy" });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ referenceId: organizationId });
    const id = created.json!.id;
    expect((await owner.browser.get<{ total: number }>(`/api-key/list?organizationId=${organizationId}`)).json!.total).toBe(1);
    // The default roles grant nothing on `apiKey`: only the creator role may act.
    const refused = await member.browser.get(`/api-key/get?id=${id}&configId=org`);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: "INSUFFICIENT_API_KEY_PERMISSIONS" });
    expect((await stranger.browser.get(`/api-key/get?id=${id}&configId=org`)).json).toMatchObject({ code: "USER_NOT_MEMBER_OF_ORGANIZATION" });
    expect((await owner.browser.post("/api-key/delete", { keyId: id, configId: "org" })).json).toEqual({ success: true });
  });
});
