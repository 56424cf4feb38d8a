import type { Metadata } from "next";
import { SettlementRun } from "./settlement-run";

export const metadata: Metadata = { title: "Settlements" };

export default function AdminSettlementsPage() {
  return <SettlementRun />;
}
