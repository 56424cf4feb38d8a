-- The signing gate keeps credentials (decrypted secret included) in process memory
-- (server/http/credential-cache.ts). Every change that the gate reads is announced
-- on channel credential_changes when its transaction commits, whichever code path
-- (service, CLI, a hand-written UPDATE) made it: 'k:<key_id>' for one credential,
-- 'p:<partner_id>' for every key of a partner. last_used_at/last_used_ip (written
-- by partner_request_gate), label and rolled_at do not change what the gate decides,
-- so they stay silent.
CREATE FUNCTION notify_credential_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'credentials' THEN
    PERFORM pg_notify('credential_changes', 'k:' || OLD.key_id);
  ELSE
    PERFORM pg_notify('credential_changes', 'p:' || OLD.id);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER credentials_notify_change AFTER UPDATE ON credentials FOR EACH ROW
  WHEN ((OLD.key_id, OLD.partner_id, OLD.environment, OLD.secret_sealed, OLD.scopes, OLD.allowed_cidrs,
         OLD.previous_secret_sealed, OLD.previous_secret_expires_at, OLD.revoked_at)
        IS DISTINCT FROM
        (NEW.key_id, NEW.partner_id, NEW.environment, NEW.secret_sealed, NEW.scopes, NEW.allowed_cidrs,
         NEW.previous_secret_sealed, NEW.previous_secret_expires_at, NEW.revoked_at))
  EXECUTE FUNCTION notify_credential_change();
--> statement-breakpoint
CREATE TRIGGER credentials_notify_delete AFTER DELETE ON credentials FOR EACH ROW
  EXECUTE FUNCTION notify_credential_change();
--> statement-breakpoint
CREATE TRIGGER partners_notify_change AFTER UPDATE ON partners FOR EACH ROW
  WHEN ((OLD.payment_model, OLD.is_affiliate, OLD.suspended_at)
        IS DISTINCT FROM (NEW.payment_model, NEW.is_affiliate, NEW.suspended_at))
  EXECUTE FUNCTION notify_credential_change();
--> statement-breakpoint
CREATE TRIGGER partners_notify_delete AFTER DELETE ON partners FOR EACH ROW
  EXECUTE FUNCTION notify_credential_change();
