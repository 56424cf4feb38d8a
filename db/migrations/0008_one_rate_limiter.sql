-- One GCRA rate limiter for every caller (partner gate, public search and MCP,
-- OAuth registration and sign-up): rate_limit_take over the rate_limits table.
-- partner_request_gate keeps its nonce step and delegates the limit to it.
CREATE OR REPLACE FUNCTION rate_limit_take(
  p_bucket text,
  p_limit integer,
  p_period_ms integer,
  p_now timestamptz
) RETURNS TABLE (allowed boolean, remaining integer, reset_ms integer, retry_after_ms integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_interval double precision;
  v_tat timestamptz;
  v_new_tat timestamptz;
  v_ahead double precision;
BEGIN
  -- Bounded housekeeping: about one call in a thousand sweeps idle buckets.
  IF random() < 0.001 THEN
    DELETE FROM rate_limits WHERE ctid IN (
      SELECT ctid FROM rate_limits WHERE tat < p_now - interval '1 day' LIMIT 5000);
  END IF;

  -- GCRA: each request pushes the theoretical arrival time (tat) forward by
  -- period/limit; a request is refused when tat would run more than one period
  -- ahead of now. Equivalent to a token bucket of `limit` refilled evenly.
  v_interval := p_period_ms::double precision / p_limit;
  INSERT INTO rate_limits (key, tat) VALUES (p_bucket, p_now) ON CONFLICT (key) DO NOTHING;
  SELECT tat INTO v_tat FROM rate_limits WHERE key = p_bucket FOR UPDATE;
  v_tat := greatest(v_tat, p_now);
  v_new_tat := v_tat + v_interval * interval '1 millisecond';
  v_ahead := extract(epoch FROM (v_new_tat - p_now)) * 1000;
  IF v_ahead > p_period_ms + 0.5 THEN
    RETURN QUERY SELECT false, 0,
      ceil(extract(epoch FROM (v_tat - p_now)) * 1000)::integer,
      ceil(v_ahead - p_period_ms)::integer;
    RETURN;
  END IF;
  UPDATE rate_limits SET tat = v_new_tat WHERE key = p_bucket;
  RETURN QUERY SELECT true,
    greatest(0, floor((p_period_ms - v_ahead + 0.5) / v_interval))::integer,
    ceil(v_ahead)::integer,
    0;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION partner_request_gate(
  p_credential_id text,
  p_nonce text,
  p_now timestamptz,
  p_nonce_ttl_ms integer,
  p_bucket text,
  p_limit integer,
  p_period_ms integer
) RETURNS TABLE (replay boolean, allowed boolean, remaining integer, reset_ms integer, retry_after_ms integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_rows integer;
BEGIN
  INSERT INTO nonces (credential_id, nonce, expires_at)
  VALUES (p_credential_id, p_nonce, p_now + p_nonce_ttl_ms * interval '1 millisecond')
  ON CONFLICT (credential_id, nonce) DO UPDATE SET expires_at = excluded.expires_at
    WHERE nonces.expires_at <= p_now;
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  IF v_rows = 0 THEN
    RETURN QUERY SELECT true, false, 0, 0, 0;
    RETURN;
  END IF;

  -- Bounded housekeeping: about one request in a thousand sweeps expired nonces
  -- (rate_limit_take sweeps idle buckets the same way).
  IF random() < 0.001 THEN
    DELETE FROM nonces WHERE ctid IN (SELECT ctid FROM nonces WHERE expires_at < p_now LIMIT 5000);
  END IF;

  UPDATE credentials SET last_used_at = p_now
  WHERE id = p_credential_id AND (last_used_at IS NULL OR last_used_at < p_now - interval '1 minute');

  IF p_bucket IS NULL THEN
    RETURN QUERY SELECT false, true, 0, 0, 0;
    RETURN;
  END IF;

  RETURN QUERY SELECT false, t.allowed, t.remaining, t.reset_ms, t.retry_after_ms
    FROM rate_limit_take(p_bucket, p_limit, p_period_ms, p_now) t;
END;
$$;
--> statement-breakpoint
DROP FUNCTION public_rate_limit(text, integer, integer, timestamptz);
