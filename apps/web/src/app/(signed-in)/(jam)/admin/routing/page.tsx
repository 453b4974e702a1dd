import type { Metadata } from "next";
import { RouterTeaching } from "@/components/admin/router-teaching";

export const metadata: Metadata = { title: "Routing" };

export default function RoutingPage() {
  return <RouterTeaching />;
}
