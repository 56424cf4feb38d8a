import { spawn } from "node:child_process";

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A repository script (scripts/*.ts) as a real process through tsx, killed after `timeoutMs`. */
export function runScript(args: string[], env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<ScriptRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
