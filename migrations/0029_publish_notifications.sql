-- Live publish (issue #25): a committed change wakes `herald publish --watch` at once.
--
-- Every change the published site depends on is written to audit_log by the audit triggers,
-- whoever makes it (the CLI, apply, a tenant's operator, plain SQL). A trigger there raises
-- NOTIFY, which PostgreSQL delivers only when (and if) the transaction commits. One
-- notification per transaction and channel, whatever it changed: the trigger runs only for
-- the first audit row of each tenant in a transaction (its WHEN clause reads a
-- transaction-local list of the tenants already noted, so the other rows cost no function
-- call), and PostgreSQL delivers identical notifications of one transaction once. A
-- 20,000-campaign apply of one tenant sends two: one to the site's channel, one to the tenant's.
--
-- LISTEN takes no privilege: any login may listen on any channel. So the channels' names are
-- secret, derived from a random value only this function's owner reads: a tenant's login
-- learns its own tenant's channel and nothing of when other tenants change things.

CREATE TABLE publish_channel_secret (
    secret text NOT NULL DEFAULT md5(gen_random_uuid()::text || clock_timestamp()::text),
    one_row boolean NOT NULL DEFAULT true UNIQUE CHECK (one_row)
);
INSERT INTO publish_channel_secret DEFAULT VALUES;
REVOKE ALL ON publish_channel_secret FROM PUBLIC;

COMMENT ON TABLE publish_channel_secret IS
    'The random value the names of publish notification channels are derived from (LISTEN needs no privilege: the names are the secret).';

-- The channel of the tenant with id `tenant_id`, or of the whole site (NULL). Not exposed:
-- callers ask herald_publish_channel(), which checks who asks.
CREATE FUNCTION herald_publish_channel_name(tenant_id bigint) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT 'herald_publish_' || md5(s.secret || ':' || coalesce(tenant_id::text, 'site')) FROM public.publish_channel_secret s
$$;
REVOKE ALL ON FUNCTION herald_publish_channel_name(bigint) FROM PUBLIC;

-- The channel a watcher of `tenant_id` (NULL: the whole site) listens on, for the login
-- asking: Herald's own logins get any; a tenant's operator its own tenant's only; anyone
-- else NULL.
CREATE FUNCTION herald_publish_channel(tenant_id bigint) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT public.herald_publish_channel_name(herald_publish_channel.tenant_id)
    FROM public.herald_login() l
    WHERE l.kind = 'owner' OR (l.kind = 'operator' AND l.tenant_id = herald_publish_channel.tenant_id)
$$;

-- The trigger: notes the row's tenant for the rest of the transaction and notifies the site's
-- and the tenant's channels. A savepoint rolled back takes both back with it (the setting and
-- the pending notifications), and a later change notes the tenant again.
CREATE FUNCTION herald_notify_publishers() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    noticed text := coalesce(nullif(current_setting('herald.noticed_tenants', true), ''), ',');
BEGIN
    -- A statement inserting several audit rows queues this trigger for each before it runs.
    IF strpos(noticed, ',' || NEW.tenant_id || ',') > 0 THEN
        RETURN NULL;
    END IF;
    PERFORM set_config('herald.noticed_tenants', noticed || NEW.tenant_id || ',', true);
    PERFORM pg_notify(public.herald_publish_channel_name(NULL), '');
    PERFORM pg_notify(public.herald_publish_channel_name(NEW.tenant_id), '');
    RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION herald_notify_publishers() FROM PUBLIC;

CREATE TRIGGER audit_log_notify_publishers AFTER INSERT ON audit_log
FOR EACH ROW
WHEN (strpos(coalesce(current_setting('herald.noticed_tenants', true), ''), ',' || NEW.tenant_id || ',') = 0)
EXECUTE FUNCTION herald_notify_publishers();

-- The next moment a campaign starts or ends after :at (the watcher's timer), read by the
-- watcher's session like the rest of the site.
CREATE INDEX campaigns_active_starts_idx ON campaigns (starts_at) WHERE status = 'active';
CREATE INDEX campaigns_active_ends_idx ON campaigns (ends_at) WHERE status = 'active';
