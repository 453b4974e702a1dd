import type { Metadata } from "next";
import { AdminJobs } from "@/components/admin/admin-jobs";

export const metadata: Metadata = { title: "Jobs" };

export default function JobsPage() {
  return <AdminJobs />;
}
