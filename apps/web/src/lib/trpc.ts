"use client";
import type { inferRouterOutputs } from "@trpc/server";
import { createTRPCContext } from "@trpc/tanstack-react-query";
// Type-only: the browser bundle gets the router's types, never its code.
import type { AppRouter } from "@/server/trpc/root";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * What a procedure answers, as the browser receives it (JSON): use these, not the contracts'
 * z.infer types, for props that carry query data (JSON turns `unknown` fields into JSON values).
 */
export type TRouterOutputs = inferRouterOutputs<AppRouter>;
