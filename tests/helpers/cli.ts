import { spawn } from "node:child_process";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The operations CLI (scripts/admin.ts) as a real process against the test database. */
export function runAdmin(...args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { env: process.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
