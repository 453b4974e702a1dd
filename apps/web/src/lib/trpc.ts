"use client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
// Type-only: the browser bundle gets the router's types, never its code.
import type { AppRouter } from "@/server/trpc/root";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();
