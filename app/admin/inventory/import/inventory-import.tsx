"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState, type ChangeEvent, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Alert, Button, ConfirmDialog, Label, PageHeader, Select, Table, TBody, TD, TH, THead, TR, Textarea, useToast } from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { environmentOf } from "../staff-inventory";

// Bulk listing from a CSV: check first (every row validated, nothing written),
// then import all rows in one transaction with a reason, or none. The same
// service as `domain:import`.

type Report = inferRouterOutputs<AppRouter>["admin"]["inventory"]["import"];

const MAX_BYTES = 2 * 1024 * 1024;
const example = "name,price_cents,floor_cents,currency\nexample-one.com,125000,90000,USD\nexample-two.io,48000,,\n";

export function InventoryImport() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [filters, setFilters] = useUrlState(["env"] as const);
  const environment = environmentOf(filters.env);
  const [csvText, setCsvText] = useState("");
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const check = useMutation(trpc.admin.inventory.import.mutationOptions());
  const apply = useMutation(trpc.admin.inventory.import.mutationOptions());
  const checked = check.data && !check.isPending && check.variables?.csvText === csvText && check.variables.environment === environment ? check.data : undefined;

  const edit = (text: string) => {
    setCsvText(text);
    apply.reset();
  };
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileProblem(null);
    if (!file) return;
    if (file.size > MAX_BYTES) return setFileProblem(`${file.name} is larger than 2 MB: split it into several files.`);
    edit(await file.text());
  };
  const onCheck = (event: FormEvent) => {
    event.preventDefault();
    apply.reset();
    check.mutate({ environment, csvText, dryRun: true });
  };
  const writes = checked ? checked.added + checked.relisted + checked.repriced : 0;

  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link href={`/admin/inventory${environment === "sandbox" ? "?env=sandbox" : ""}`} className="text-sm text-muted hover:text-ink">
          ← Inventory
        </Link>
        <PageHeader title="Import listings" description="List or reprice many domains from a CSV file. Every row is checked first; a file with a bad row imports nothing." />
      </div>
      <form onSubmit={onCheck} className="space-y-4 rounded-xl border border-line bg-surface p-4" aria-label="CSV import">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-1.5">
            <Label htmlFor="import-env">Into the inventory</Label>
            <Select id="import-env" value={environment} onChange={(event) => setFilters({ env: event.target.value === "live" ? "" : event.target.value })}>
              <option value="live">Live</option>
              <option value="sandbox">Sandbox</option>
            </Select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="import-file">CSV file</Label>
            <input
              id="import-file"
              type="file"
              accept=".csv,text/csv,text/plain"
              onChange={(event) => void onFile(event)}
              className="block w-full text-sm text-muted file:mr-3 file:rounded-md file:border file:border-line-strong file:bg-surface file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-ink hover:file:bg-subtle"
            />
          </div>
        </div>
        {fileProblem ? <Alert tone="danger">{fileProblem}</Alert> : null}
        <div className="space-y-1.5">
          <Label htmlFor="import-csv">Rows (the file&apos;s content; paste or edit here)</Label>
          <Textarea
            id="import-csv"
            rows={10}
            value={csvText}
            onChange={(event) => edit(event.target.value)}
            placeholder={example}
            spellCheck={false}
            wrap="off"
            aria-describedby="import-format"
            className="font-mono text-xs"
          />
          <div id="import-format" className="space-y-1 text-xs text-muted">
            <p>
              A header row, then one domain a line: <code className="font-mono text-ink">name,price_cents,floor_cents,currency,action</code>. Only{" "}
              <code className="font-mono">name</code> and <code className="font-mono">price_cents</code> are required.
            </p>
            <p>
              Prices are whole minor units (cents): <code className="font-mono">125000</code> is 1,250.00. An empty floor means no floor (without a
              floor column, repricing keeps the floor). An empty currency is USD for a new listing and unchanged when repricing. The action is{" "}
              <code className="font-mono">add</code> (the default: a new or removed name) or <code className="font-mono">reprice</code> (an available
              listing). At most 10,000 rows and 2 MB.
            </p>
          </div>
        </div>
        <Button type="submit" disabled={check.isPending || !csvText.trim()}>
          {check.isPending ? "Checking…" : "Check file"}
        </Button>
      </form>
      {check.error ? <Alert tone="danger">{check.error.message}</Alert> : null}
      {apply.data?.applied ? (
        <Alert tone="success" title={`Imported ${apply.data.rows.toLocaleString("en-US")} domains into the ${apply.data.environment} inventory`}>
          <p>
            {summary(apply.data)}{" "}
            <Link href={`/admin/inventory${apply.data.environment === "sandbox" ? "?env=sandbox" : ""}`} className="font-medium underline">
              See the {apply.data.environment} inventory
            </Link>
          </p>
        </Alert>
      ) : checked ? (
        <section aria-labelledby="import-check" className="space-y-4">
          {checked.problemCount > 0 ? (
            <>
              <Alert tone="danger" title={`${checked.problemCount} problem(s) in ${checked.rows} row(s): nothing will be imported`}>
                Fix the rows below (edit them above or choose the corrected file) and check again.
              </Alert>
              <h2 id="import-check" className="text-base font-semibold text-ink">
                Problems
              </h2>
              <ProblemTable problems={checked.problems} />
              {checked.problemCount > checked.problems.length ? <p className="text-sm text-muted">The first {checked.problems.length} are listed.</p> : null}
            </>
          ) : (
            <div className="space-y-3 rounded-xl border border-line bg-surface p-4">
              <h2 id="import-check" className="text-base font-semibold text-ink">
                Ready: {checked.rows.toLocaleString("en-US")} row(s), no problems
              </h2>
              <p className="text-sm text-muted" data-testid="import-summary">
                {summary(checked)}
              </p>
              <ConfirmDialog
                trigger={<Button>{`Import ${writes.toLocaleString("en-US")} domains into ${environment} inventory`}</Button>}
                title={`Import ${writes.toLocaleString("en-US")} domains into the ${environment} inventory?`}
                description={<p>{summary(checked)} All rows are written together; they are for sale at once.</p>}
                tone="primary"
                confirmLabel={`Import ${writes.toLocaleString("en-US")} domains`}
                confirmDisabled={reason.trim().length < 3}
                onOpenChange={(open) => (open ? undefined : setReason(""))}
                onConfirm={async () => {
                  const report = await apply.mutateAsync({ environment, csvText, reason: reason.trim(), dryRun: false });
                  if (!report.applied) throw new Error(`${report.problemCount} problem(s) appeared since the check: check the file again.`);
                  toast({ title: `${report.rows} domains imported`, tone: "success" });
                  setCsvText("");
                  await queryClient.invalidateQueries({ queryKey: trpc.admin.inventory.pathKey() });
                }}
              >
                <div className="space-y-1.5">
                  <Label htmlFor="import-reason">Reason (required; in the audit log)</Label>
                  <Textarea id="import-reason" rows={2} value={reason} onChange={(event) => setReason(event.target.value)} className="font-sans text-sm" />
                </div>
              </ConfirmDialog>
            </div>
          )}
        </section>
      ) : null}
    </div>
  );
}

function summary(report: Report): string {
  const parts = [`${report.added} new`, `${report.relisted} listed again`, `${report.repriced} repriced`];
  return `${parts.join(", ")} in the ${report.environment} inventory.`;
}

function ProblemTable({ problems }: { problems: Report["problems"] }) {
  return (
    <Table aria-label="Problems in the file" data-testid="import-problems">
      <THead>
        <TR>
          <TH className="w-16">Line</TH>
          <TH className="w-32">Column</TH>
          <TH>Problem</TH>
        </TR>
      </THead>
      <TBody>
        {problems.map((p) => (
          <TR key={`${p.line}-${p.column}-${p.message}`} data-testid="import-problem" data-line={p.line}>
            <TD className="tabular-nums">{p.line}</TD>
            <TD className="font-mono text-xs">{p.column}</TD>
            <TD className="break-words">{p.message}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
