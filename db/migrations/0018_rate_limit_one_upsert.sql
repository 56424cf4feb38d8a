-- The signed-request gate's database work, trimmed (issue 16). Same answers as 0008
-- and 0012; measured per call on the 2-core machine, PostgreSQL CPU of the gate went
-- from about 630 us to the figure in HOT-PATH-REPORT.
--
-- rate_limit_take: the GCRA step in one upsert instead of insert-if-missing, select
-- for update, update. ON CONFLICT DO UPDATE locks the bucket's row whether or not its
-- WHERE lets the update through, so concurrent takes still serialise on the row and
-- the limit stays exact; only a refused take reads the row again (under that lock).
CREATE OR REPLACE FUNCTION rate_limit_take(
  p_bucket text,
  p_limit integer,
  p_period_ms integer,
  p_now timestamptz
) RETURNS TABLE (allowed boolean, remaining integer, reset_ms integer, retry_after_ms integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_interval_ms double precision := p_period_ms::double precision / p_limit;
  v_interval interval := v_interval_ms * interval '1 millisecond';
  v_new_tat timestamptz;
  v_tat timestamptz;
  v_ahead double precision;
BEGIN
  -- Bounded housekeeping: about one call in a thousand sweeps idle buckets.
  IF random() < 0.001 THEN
    DELETE FROM rate_limits WHERE ctid IN (
      SELECT ctid FROM rate_limits WHERE tat < p_now - interval '1 day' LIMIT 5000);
  END IF;

  -- GCRA: a take pushes the theoretical arrival time (tat) period/limit forward and is
  -- refused when that would put tat more than one period (+0.5 ms) ahead of now.
  INSERT INTO rate_limits AS r (key, tat) VALUES (p_bucket, p_now + v_interval)
  ON CONFLICT (key) DO UPDATE SET tat = greatest(r.tat, p_now) + v_interval
    WHERE greatest(r.tat, p_now) + v_interval <= p_now + (p_period_ms + 0.5) * interval '1 millisecond'
  RETURNING r.tat INTO v_new_tat;

  IF v_new_tat IS NOT NULL THEN
    v_ahead := extract(epoch FROM (v_new_tat - p_now)) * 1000;
    RETURN QUERY SELECT true,
      greatest(0, floor((p_period_ms - v_ahead + 0.5) / v_interval_ms))::integer,
      ceil(v_ahead)::integer,
      0;
    RETURN;
  END IF;

  SELECT greatest(rl.tat, p_now) INTO v_tat FROM rate_limits rl WHERE rl.key = p_bucket;
  v_ahead := extract(epoch FROM (v_tat + v_interval - p_now)) * 1000;
  RETURN QUERY SELECT false, 0,
    ceil(extract(epoch FROM (v_tat - p_now)) * 1000)::integer,
    ceil(v_ahead - p_period_ms)::integer;
END;
$$;
--> statement-breakpoint
-- As in 0012 (which stays, for servers of the previous release during a deploy), plus p_touch: the caller says whether last_used_at/last_used_ip may need
-- writing (the credential cache knows when this process last wrote them for the key
-- and from which address), so most requests skip that UPDATE. The UPDATE keeps its
-- own once-a-minute guard, so several processes still write at most about once a
-- minute each.
CREATE FUNCTION partner_request_gate(
  p_credential_id text,
  p_nonce text,
  p_now timestamptz,
  p_nonce_ttl_ms integer,
  p_bucket text,
  p_limit integer,
  p_period_ms integer,
  p_ip text,
  p_touch boolean
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

  IF random() < 0.001 THEN
    DELETE FROM nonces WHERE ctid IN (SELECT ctid FROM nonces WHERE expires_at < p_now LIMIT 5000);
  END IF;

  IF p_touch THEN
    UPDATE credentials SET last_used_at = p_now, last_used_ip = p_ip
    WHERE id = p_credential_id
      AND (last_used_at IS NULL OR last_used_at < p_now - interval '1 minute' OR last_used_ip IS DISTINCT FROM p_ip);
  END IF;

  IF p_bucket IS NULL THEN
    RETURN QUERY SELECT false, true, 0, 0, 0;
    RETURN;
  END IF;

  RETURN QUERY SELECT false, t.allowed, t.remaining, t.reset_ms, t.retry_after_ms
    FROM rate_limit_take(p_bucket, p_limit, p_period_ms, p_now) t;
END;
$$;
