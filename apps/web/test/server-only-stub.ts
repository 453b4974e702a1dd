// Empty stand-in for the "server-only" guard in vitest (see vitest.config.ts).
export {};
