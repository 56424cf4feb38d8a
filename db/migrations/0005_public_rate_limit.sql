-- Rate limit of the public interface (search and the MCP tool): one GCRA
-- bucket per client IP or per token, taken in one round trip. Same algorithm
-- as partner_request_gate; time comes in as a parameter so the service's clock
-- is the only clock.
CREATE OR REPLACE FUNCTION public_rate_limit(
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
