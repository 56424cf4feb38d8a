-- The signed-request gate's bookkeeping commits without waiting for the WAL flush
-- (issue 16). Measured on the 2-core machine, one connection, 3,000 calls: PostgreSQL
-- CPU per gate call 303 us -> 137 us, and the call's wall time 2.55 ms -> 0.58 ms;
-- the flush (fdatasync) was most of both.
--
-- What this gives up, and why that is safe: after a PostgreSQL crash (not a client or
-- server process crash), the gate's rows committed in the last ~0.6 s (3 x
-- wal_writer_delay) may be lost: a nonce, a rate-limit step, a last-used time. Other
-- sessions see the rows at commit as before, so replays are refused on every
-- instance and limits stay shared. A request whose handler writes (POST /orders,
-- /quotes, ...) commits its own work synchronously afterwards, and that flush covers
-- every earlier WAL record, this gate's included: its nonce is durable before its
-- answer is sent. Only a read's nonce can be lost, and replaying a read after a
-- database crash changes nothing.
--
-- Same signature and answers as 0018; only the first statement is new.
CREATE OR REPLACE FUNCTION partner_request_gate(
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
  -- For this transaction only (SET LOCAL): the caller's statement is its own transaction.
  PERFORM set_config('synchronous_commit', 'off', true);

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
