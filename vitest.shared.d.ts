import { type UserWorkspaceConfig } from "vitest/config";
/** Shared vitest settings: workspace packages resolve to their TypeScript sources. */
export declare function latchkeyProject(name: string, extra?: UserWorkspaceConfig["test"]): UserWorkspaceConfig;
