CREATE TABLE "domain_terms" (
	"term" text NOT NULL,
	"environment" "environment" NOT NULL,
	"prior" smallint NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "search_prior" smallint GENERATED ALWAYS AS ((1000 - 15 * least(length(label), 40) - 120 * (length(label) - length(replace(label, '-', ''))) - 80 * (label ~ '[0-9]')::int + case tld when 'com' then 45 when 'ai' then 20 when 'io' then 20 when 'co' then 20 else 0 end)) STORED NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "domain_terms_rank" ON "domain_terms" USING btree ("term","environment","prior" desc,"name");--> statement-breakpoint
-- Postings follow the listing in the same transaction: a bulk insert adds its
-- rows' postings in one statement (transition table); an update that changes
-- what search sees, or a delete, replaces or drops that row's postings (found by
-- their full key through the rank index: the old row's words, prior and name).
CREATE FUNCTION domain_terms_of_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_terms (term, environment, prior, name)
  SELECT DISTINCT t.term, n.environment, n.search_prior, n.name
  FROM new_rows n, unnest(string_to_array(n.tokens, ' ')) AS t(term)
  WHERE n.status = 'listed' AND t.term <> '';
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION domain_terms_of_changed_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM domain_terms
  WHERE term = ANY (string_to_array(OLD.tokens, ' ')) AND environment = OLD.environment
    AND prior = OLD.search_prior AND name = OLD.name;
  IF TG_OP = 'UPDATE' AND NEW.status = 'listed' THEN
    INSERT INTO domain_terms (term, environment, prior, name)
    SELECT DISTINCT t.term, NEW.environment, NEW.search_prior, NEW.name
    FROM unnest(string_to_array(NEW.tokens, ' ')) AS t(term)
    WHERE t.term <> '';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER domain_terms_insert AFTER INSERT ON domains
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION domain_terms_of_new_rows();--> statement-breakpoint
CREATE TRIGGER domain_terms_update AFTER UPDATE ON domains FOR EACH ROW
  WHEN (OLD.tokens IS DISTINCT FROM NEW.tokens OR OLD.status IS DISTINCT FROM NEW.status OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD.label IS DISTINCT FROM NEW.label OR OLD.tld IS DISTINCT FROM NEW.tld OR OLD.environment IS DISTINCT FROM NEW.environment)
  EXECUTE FUNCTION domain_terms_of_changed_row();--> statement-breakpoint
CREATE TRIGGER domain_terms_delete AFTER DELETE ON domains FOR EACH ROW EXECUTE FUNCTION domain_terms_of_changed_row();--> statement-breakpoint
INSERT INTO domain_terms (term, environment, prior, name)
SELECT DISTINCT t.term, d.environment, d.search_prior, d.name
FROM domains d, unnest(string_to_array(d.tokens, ' ')) AS t(term)
WHERE d.status = 'listed' AND t.term <> '';
