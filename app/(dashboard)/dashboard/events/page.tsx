import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { requireSessionUser } from "@/server/auth/session";
import { EventsExplorer } from "./events-explorer";

export const metadata: Metadata = { title: "Events" };

export default async function EventsPage() {
  const user = await requireSessionUser("/dashboard/events");
  if (user.role !== "partner") notFound();
  return (
    // The explorer reads its filters and the open event from the query string.
    <Suspense fallback={<LoadingRows label="Loading events…" />}>
      <EventsExplorer />
    </Suspense>
  );
}
