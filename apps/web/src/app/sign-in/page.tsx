import type { Metadata } from "next";
import { SignInForm } from "@/components/session/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  return <SignInForm next={typeof next === "string" ? next : null} />;
}
