"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useMe } from "./session";

/** Sends a Jam editor to /review (their work) and anyone else to /chat. */
export function HomeRedirect() {
  const me = useMe();
  const router = useRouter();
  const role = me.data?.role;
  useEffect(() => {
    if (role) router.replace(role === "jam" ? "/review" : "/chat");
  }, [role, router]);
  return <p className="muted">Opening your start page…</p>;
}
