"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import {
  Alert,
  Badge,
  Button,
  buttonClasses,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Field,
  inputClasses,
  Label,
  RelativeTime,
  useToast,
} from "@/components/ui";
import { cn } from "@/components/ui/cn";
import type { Organisation } from "./organisation-view";

// Production access: approved, waiting for staff, or a short request form
// (again after a decline). Staff decide with `npm run admin -- partner:access-decide`.

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const numberFormat = new Intl.NumberFormat("en-US");

type FieldName = "website" | "useCase" | "expectedMonthlyOrders";
const FIELD_NAMES: readonly FieldName[] = ["website", "useCase", "expectedMonthlyOrders"];

interface FormError {
  message: string;
  data?: { code?: string; details?: ReadonlyArray<{ path: string; message: string }> | null } | null;
}

/**
 * Field messages of a validation_error: from `details` when the server sends
 * them, else from the zod issues tRPC puts in the message as JSON.
 */
function fieldErrors(error: FormError | null): { fields: Partial<Record<FieldName, string>>; general: string | null } {
  if (!error) return { fields: {}, general: null };
  let issues: { path: string; message: string }[] = [...(error.data?.details ?? [])];
  if (issues.length === 0 && error.data?.code === "validation_error") {
    try {
      const parsed: unknown = JSON.parse(error.message);
      if (Array.isArray(parsed)) {
        issues = parsed.flatMap((issue: { path?: unknown; message?: unknown }) =>
          typeof issue?.message === "string" ? [{ path: Array.isArray(issue.path) ? issue.path.join(".") : String(issue.path ?? ""), message: issue.message }] : [],
        );
      }
    } catch {
      // A plain sentence: shown as it is.
    }
  }
  const fields: Partial<Record<FieldName, string>> = {};
  for (const issue of issues) {
    const name = issue.path.split(".")[0] as FieldName;
    if (FIELD_NAMES.includes(name) && !fields[name]) fields[name] = issue.message;
  }
  const mapped = Object.keys(fields).length > 0;
  return { fields, general: mapped ? null : error.message };
}

export function ProductionAccess({ organisation, viewer }: { organisation: Organisation; viewer: boolean }) {
  const request = organisation.accessRequest;
  return (
    <Card data-testid="production-access">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle>Production access</CardTitle>
          {organisation.liveApprovedAt ? (
            <Badge tone="success" data-testid="access-status">
              Approved
            </Badge>
          ) : request?.status === "pending" ? (
            <Badge tone="warning" data-testid="access-status">
              Pending
            </Badge>
          ) : (
            <Badge data-testid="access-status">Sandbox only</Badge>
          )}
        </div>
        <CardDescription>Live keys sell real domains for real money; our partner team approves each organisation.</CardDescription>
      </CardHeader>
      <CardContent>
        {organisation.liveApprovedAt ? (
          <div className="space-y-4">
            <p className="text-sm text-ink">
              Approved {dateFormat.format(new Date(organisation.liveApprovedAt))}: you can create live keys.
            </p>
            <p className="text-sm text-muted">Switch the header to live, then create a key on the API keys page.</p>
            <Link href="/dashboard/keys" className={buttonClasses({ variant: "secondary" })}>
              Go to API keys
            </Link>
          </div>
        ) : request?.status === "pending" ? (
          <div className="space-y-4">
            <p className="text-sm text-ink">
              Sent <RelativeTime value={request.createdAt} />. Our partner team reviews each request; the decision appears here.
            </p>
            <dl className="space-y-3 rounded-lg bg-subtle p-4 text-sm ring-1 ring-line">
              <div>
                <dt className="text-xs font-medium tracking-wide text-muted uppercase">Website</dt>
                <dd className="mt-0.5 break-all text-ink">{request.website}</dd>
              </div>
              <div>
                <dt className="text-xs font-medium tracking-wide text-muted uppercase">Use case</dt>
                <dd className="mt-0.5 whitespace-pre-line text-ink">{request.useCase}</dd>
              </div>
              <div>
                <dt className="text-xs font-medium tracking-wide text-muted uppercase">Expected monthly orders</dt>
                <dd className="mt-0.5 text-ink tabular-nums">{numberFormat.format(request.expectedMonthlyOrders)}</dd>
              </div>
            </dl>
          </div>
        ) : (
          <div className="space-y-4">
            {request?.status === "declined" ? (
              <Alert tone="warning" title="Your last request was declined" data-testid="access-declined">
                {request.decisionNote ? <p>{request.decisionNote}</p> : <p>No reason was given.</p>}
                <p className="mt-1">You can send a new request below.</p>
              </Alert>
            ) : null}
            <AccessRequestForm viewer={viewer} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function AccessRequestForm({ viewer }: { viewer: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [website, setWebsite] = useState("");
  const [useCase, setUseCase] = useState("");
  const [orders, setOrders] = useState("");
  const send = useMutation(
    trpc.account.requestProductionAccess.mutationOptions({
      onSuccess: () => {
        toast({ title: "Request sent", description: "Our partner team will review it.", tone: "success" });
        return queryClient.invalidateQueries({ queryKey: trpc.account.organisation.queryKey() });
      },
      onError: (error) => {
        // Someone else sent one, or it was approved meanwhile: show the current state.
        if (error.data?.code === "conflict") void queryClient.invalidateQueries({ queryKey: trpc.account.organisation.queryKey() });
      },
    }),
  );
  // An empty number field would reach the server as 0; ask for it here instead.
  const [ordersMissing, setOrdersMissing] = useState(false);
  const { fields, general } = fieldErrors(send.error);
  if (ordersMissing) fields.expectedMonthlyOrders = "Enter a number (your best estimate; 0 is fine)";

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const missing = orders.trim() === "";
    setOrdersMissing(missing);
    if (missing) return;
    // The server validates the rest and answers with a message per field.
    send.mutate({ website, useCase, expectedMonthlyOrders: Number(orders) });
  };

  const disabled = viewer || send.isPending;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Request production access" data-testid="access-form">
      <p className="text-sm text-muted">Tell us where you will sell and how; our partner team decides each request.</p>
      {viewer ? (
        <Alert tone="info" title="Only owners can send this request">
          Ask an owner of your organisation to request production access.
        </Alert>
      ) : null}
      {general ? (
        <Alert tone="danger" title="We couldn't send your request">
          {general}
        </Alert>
      ) : null}
      <Field
        id="access-website"
        label="Website"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="https://example.com"
        value={website}
        onChange={(event) => setWebsite(event.target.value)}
        error={fields.website}
        hint="Where buyers will find the domains you sell"
        disabled={disabled}
        required
      />
      <div className="space-y-1.5">
        <Label htmlFor="access-use-case">Use case</Label>
        <textarea
          id="access-use-case"
          rows={4}
          value={useCase}
          onChange={(event) => setUseCase(event.target.value)}
          aria-invalid={fields.useCase ? true : undefined}
          aria-describedby={cn("access-use-case-hint", fields.useCase && "access-use-case-error")}
          disabled={disabled}
          required
          minLength={20}
          className={cn(inputClasses, "h-auto py-2")}
        />
        <p id="access-use-case-hint" className="text-xs text-faint">
          How you will sell domains, in a sentence or two (20 characters or more)
        </p>
        {fields.useCase ? (
          <p id="access-use-case-error" className="text-xs font-medium text-danger-ink">
            {fields.useCase}
          </p>
        ) : null}
      </div>
      <Field
        id="access-orders"
        label="Expected monthly orders"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={orders}
        onChange={(event) => {
          setOrders(event.target.value);
          setOrdersMissing(false);
        }}
        error={fields.expectedMonthlyOrders}
        disabled={disabled}
        required
        className="max-w-48"
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={disabled}>
          {send.isPending ? "Sending…" : "Request production access"}
        </Button>
      </div>
    </form>
  );
}
