import { AppError } from "@/server/errors";

// What a request learns from the limiter (rate_limit_take, one GCRA in SQL), as
// RateLimit-* headers on every answer and a 429 with Retry-After when the bucket
// is empty. The signed partner gate and the public interface answer alike.

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** One take from a bucket of `limit` requests per minute, times in milliseconds. */
export interface RateLimitTake {
  allowed: boolean;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
}

/** The state to advertise, or rate_limited (with RateLimit-* and Retry-After) when the take was refused. */
export function rateLimitOutcome(limit: number, take: RateLimitTake): RateLimitState {
  const state = { limit, remaining: take.remaining, resetSeconds: Math.ceil(take.resetMs / 1000) };
  if (!take.allowed) {
    const retryAfter = String(Math.max(1, Math.ceil(take.retryAfterMs / 1000)));
    throw new AppError("rate_limited", `rate limit of ${limit} requests per minute exceeded; retry after ${retryAfter} s`, undefined, {
      ...rateLimitHeaders(state),
      "retry-after": retryAfter,
    });
  }
  return state;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "ratelimit-limit": String(state.limit),
    "ratelimit-remaining": String(state.remaining),
    "ratelimit-reset": String(state.resetSeconds),
  };
}
