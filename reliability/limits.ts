import { randomInt, randomUUID } from "node:crypto";
import { TIMESTAMP_SKEW_SECONDS } from "@/server/http/authenticate";
import { rateClasses } from "@/server/http/contract";
import { exactly, figure, sampler, type Report } from "./lib/figures";
import { refillsSince } from "./lib/gcra";
import { harnessPartner } from "./lib/fixtures";
import { sendSigned, type Answer, type Target } from "./lib/transport";

// Harness 6, replay, skew and limits, across the given targets (two server
// processes on one database in its CLI and CI forms):
//   replay  each signed request sent twice, the copy to the other process (half of
//           them both at once): the copy is always 401 replay_detected
//   skew    timestamps drawn from +-2x the window: nothing outside +-300 s accepted,
//           nothing inside refused (a second either side of the edge is not judged:
//           the clock may tick between signing and checking)
//   burst   `burst` requests at once from one fresh credential, spread over the
//           targets: exactly the class's limit accepted, the rest 429 rate_limited

export interface LimitsOptions {
  targets: Target[];
  nonces: number;
  skews: number;
  burst: number;
  bursts: number;
}

const PATH = "/api/partner/v1/availability?domain=reliability-limits.com";
const WRITE_PATH = "/api/partner/v1/quotes";
const codeOf = (answer: Answer) => {
  try {
    return (JSON.parse(answer.text) as { error?: { code?: string } }).error?.code ?? "";
  } catch {
    return "not-json";
  }
};

export async function runLimits(options: LimitsOptions): Promise<Report> {
  const { targets, nonces, skews, burst, bursts } = options;
  const other = (i: number) => targets[(i + 1) % targets.length]!;
  const { samples, add } = sampler();
  const searchLimit = rateClasses.search;
  const writeLimit = rateClasses.write;
  // Search keys allow 60 a minute: one credential per 50 replay pairs and per 50 skew probes.
  const perCredential = 50;
  const partner = await harnessPartner({ credentials: Math.ceil(nonces / perCredential) + Math.ceil(skews / perCredential) + 2 * bursts, scopes: ["search", "buy"] });
  let fiveXx = 0;
  const note = (a: Answer, what: string) => {
    if (a.status >= 500) fiveXx++;
    add(`${what}: ${a.target} ${a.status} ${a.text}`);
  };
  let credentialIndex = 0;
  const take = () => partner.pool[credentialIndex++]!;

  // replay
  let firstRefused = 0;
  let replaysAccepted = 0;
  let raced = 0;
  let racedBothAccepted = 0;
  for (let start = 0; start < nonces; start += perCredential) {
    const credential = take();
    await Promise.all(
      Array.from({ length: Math.min(perCredential, nonces - start) }, async (_, j) => {
        const i = start + j;
        const call = { method: "GET", url: PATH, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000) };
        const target = targets[i % targets.length]!;
        if (i % 2 === 0) {
          raced++;
          const [a, b] = await Promise.all([sendSigned(target, credential, call), sendSigned(other(i), credential, call)]);
          const accepted = [a, b].filter((x) => x.status === 200).length;
          if (accepted === 2) {
            racedBothAccepted++;
            note(b, "raced replay accepted twice");
          }
          if (accepted === 0) {
            firstRefused++;
            note(a, "raced pair refused twice");
          }
          for (const x of [a, b]) if (x.status !== 200 && codeOf(x) !== "replay_detected") note(x, "raced replay");
          return;
        }
        const first = await sendSigned(target, credential, call);
        if (first.status !== 200) {
          firstRefused++;
          note(first, "first use");
        }
        const again = await sendSigned(other(i), credential, call);
        if (again.status !== 401 || codeOf(again) !== "replay_detected") {
          replaysAccepted++;
          note(again, "replay");
        }
      }),
    );
  }

  // skew
  let outsideAccepted = 0;
  let insideRefused = 0;
  let judged = 0;
  for (let start = 0; start < skews; start += perCredential) {
    const credential = take();
    await Promise.all(
      Array.from({ length: Math.min(perCredential, skews - start) }, async (_, j) => {
        const offset = randomInt(-2 * TIMESTAMP_SKEW_SECONDS, 2 * TIMESTAMP_SKEW_SECONDS + 1);
        const answer = await sendSigned(targets[j % targets.length]!, credential, { method: "GET", url: PATH, timestamp: Math.floor(Date.now() / 1000) + offset });
        const distance = Math.abs(offset);
        if (distance === TIMESTAMP_SKEW_SECONDS || distance === TIMESTAMP_SKEW_SECONDS + 1) return;
        judged++;
        if (distance < TIMESTAMP_SKEW_SECONDS && answer.status !== 200) {
          insideRefused++;
          note(answer, `skew ${offset}`);
        }
        if (distance > TIMESTAMP_SKEW_SECONDS + 1 && (answer.status !== 401 || codeOf(answer) !== "invalid_timestamp")) {
          outsideAccepted++;
          note(answer, `skew ${offset}`);
        }
      }),
    );
  }

  // bursts: search (GET /availability) and write (POST /quotes, a domain that is not listed: 404 after the limiter)
  // GCRA refills one request every minute/limit: a burst that takes longer than that on a
  // busy machine may rightly get one more per interval it spans. Each burst's allowance is
  // its limit plus the intervals between its first send and its last answer (an upper bound
  // of the time the server saw it take); the check is limit <= accepted <= allowance.
  const searchAccepted: number[] = [];
  const writeAccepted: number[] = [];
  const burstFits = { search: true, write: true };
  let refills = 0;
  let burstOther = 0;
  for (let b = 0; b < bursts; b++) {
    for (const [kind, counts] of [["search", searchAccepted], ["write", writeAccepted]] as const) {
      const credential = take();
      const limit = kind === "search" ? searchLimit : writeLimit;
      const startedAt = performance.now();
      const answers = await Promise.all(
        Array.from({ length: burst }, (_, i) =>
          kind === "search"
            ? sendSigned(targets[i % targets.length]!, credential, { method: "GET", url: PATH })
            : sendSigned(targets[i % targets.length]!, credential, { method: "POST", url: WRITE_PATH, body: JSON.stringify({ domain: "reliability-not-listed.com" }) }),
        ),
      );
      const limited = answers.filter((a) => a.status === 429 && codeOf(a) === "rate_limited").length;
      const accepted = burst - limited;
      const allowance = limit + refillsSince(startedAt, limit);
      counts.push(accepted);
      refills += Math.max(0, accepted - limit);
      if (accepted < limit || accepted > allowance) {
        burstFits[kind] = false;
        note(answers[0]!, `${kind} burst: ${accepted} accepted, allowed ${limit}-${allowance}`);
      }
      for (const a of answers) {
        if (a.status === 429 || a.status === (kind === "search" ? 200 : 404)) continue;
        burstOther++;
        note(a, `${kind} burst`);
      }
    }
  }

  const spread = (values: number[]) => (values.length ? `${Math.min(...values)}-${Math.max(...values)}` : "-");
  return {
    harness: `replay, skew and limits over ${targets.map((t) => t.name).join(", ")}: ${nonces} nonces, ${skews} skewed timestamps, ${bursts} x ${burst}-way bursts per class`,
    figures: [
      exactly("5xx answers", fiveXx, 0),
      exactly("first uses refused", firstRefused, 0),
      exactly("replays on the other process accepted", replaysAccepted, 0),
      figure("simultaneous pairs (both processes)", raced, "-"),
      exactly("simultaneous pairs both accepted", racedBothAccepted, 0),
      figure("skewed timestamps judged", judged, "-"),
      exactly("accepted outside +-300 s", outsideAccepted, 0),
      exactly("refused inside +-300 s", insideRefused, 0),
      figure(`search bursts accepted (limit ${searchLimit})`, spread(searchAccepted), `= ${searchLimit} + refills in its time`, burstFits.search),
      figure(`write bursts accepted (limit ${writeLimit})`, spread(writeAccepted), `= ${writeLimit} + refills in its time`, burstFits.write),
      figure("refills taken during bursts (slow bursts only)", refills, "-"),
      exactly("burst answers neither ok nor 429", burstOther, 0),
    ],
    samples,
  };
}
