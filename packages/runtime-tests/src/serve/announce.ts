/** The line every launcher prints once it listens; the test reads the port from it. */
export const announce = (port: number): string => JSON.stringify({ listening: port });
