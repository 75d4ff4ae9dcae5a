-- The review board, round two (issue #27): a tenant's own team makes its board, and a tenant
-- can require four-eyes approval of what goes live.

-- A board's folder lock for every Herald login. The advisory-lock functions are Herald's
-- operator's only (0016: with them anyone could hold up publishes and migrations); this one
-- takes a lock in the board's own class of two-key locks (4853), which no publish or
-- migration uses, so a tenant's login can keep two of its boards from racing and no more.
CREATE FUNCTION herald_try_folder_lock(folder text) RETURNS boolean
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog
AS $$ SELECT pg_try_advisory_xact_lock(4853, hashtext('herald-folder:' || folder)) $$;
REVOKE ALL ON FUNCTION herald_try_folder_lock(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION herald_try_folder_lock(text) TO herald_operator, herald_tenant;

-- Four eyes. A tenant that requires approval (set by Herald's operator: a tenant's own login
-- cannot update its tenant row) gets a campaign live only in a version someone approved who
-- did not make its last change. Logins are compared as PostgreSQL knows them (session_user),
-- not as Herald's actor label says, so no client can approve its own work.
ALTER TABLE tenants ADD COLUMN require_approval boolean NOT NULL DEFAULT false;

-- Each campaign's content version: one more for every transaction that changes what devices
-- get or when (content, views, pages, conditions, schedule, locales, priority, name), with
-- the login that made the change. A status change (activate, pause) is not an edit.
CREATE TABLE campaign_versions (
    tenant_id   bigint NOT NULL DEFAULT herald_current_tenant() REFERENCES tenants (id),
    campaign_id bigint PRIMARY KEY REFERENCES campaigns (id),
    version     bigint NOT NULL DEFAULT 1,
    -- NULL: made before approvals were recorded (0031).
    edited_by   text,
    edited_at   timestamptz NOT NULL DEFAULT now(),
    edit_txid   xid8
);
-- Every campaign so far, at version 1 by no recorded login, read as Herald's operator (the
-- database's owner sees no tenant rows itself).
GRANT SELECT, INSERT ON campaign_versions TO herald_operator;
SET LOCAL ROLE herald_operator;
INSERT INTO campaign_versions (tenant_id, campaign_id, version, edited_by, edited_at)
SELECT tenant_id, id, 1, NULL, updated_at FROM campaigns;
RESET ROLE;

CREATE TABLE campaign_approvals (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id   bigint NOT NULL DEFAULT herald_current_tenant() REFERENCES tenants (id),
    campaign_id bigint NOT NULL REFERENCES campaigns (id),
    version     bigint NOT NULL,
    approved_by text NOT NULL DEFAULT session_user,
    approved_at timestamptz NOT NULL DEFAULT now(),
    -- The campaign as the approving herald showed it (campaigns-file text): what later
    -- changes are diffed against on the board. The version number is the database's check.
    snapshot    text,
    UNIQUE (campaign_id, version, approved_by)
);
CREATE INDEX campaign_approvals_version_idx ON campaign_approvals (campaign_id, version);

-- The row's login, time and version are the database's to say, whatever the client sends.
CREATE FUNCTION herald_campaign_versions_guard() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    NEW.edited_by := session_user;
    NEW.edited_at := now();
    NEW.edit_txid := pg_current_xact_id();
    IF TG_OP = 'UPDATE' THEN
        NEW.tenant_id := OLD.tenant_id;
        NEW.campaign_id := OLD.campaign_id;
        NEW.version := OLD.version + 1;
    ELSE
        NEW.version := 1;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER campaign_versions_guard BEFORE INSERT OR UPDATE ON campaign_versions
    FOR EACH ROW EXECUTE FUNCTION herald_campaign_versions_guard();

-- A change to a campaign or its content makes a new version, once per transaction.
CREATE FUNCTION herald_campaign_edited() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    row_data jsonb := CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END;
    campaign bigint := CASE WHEN TG_TABLE_NAME = 'campaigns' THEN (row_data ->> 'id')::bigint
                            ELSE (row_data ->> 'campaign_id')::bigint END;
BEGIN
    -- A campaign row's status and touch time are not its content.
    IF TG_TABLE_NAME = 'campaigns' AND TG_OP = 'UPDATE'
       AND (to_jsonb(OLD) - 'status' - 'updated_at') = (row_data - 'status' - 'updated_at') THEN
        RETURN NULL;
    END IF;
    IF NOT EXISTS (SELECT FROM public.campaigns c WHERE c.id = campaign) THEN
        RETURN NULL;
    END IF;
    INSERT INTO public.campaign_versions (tenant_id, campaign_id) VALUES ((row_data ->> 'tenant_id')::bigint, campaign)
    ON CONFLICT (campaign_id) DO UPDATE SET version = public.campaign_versions.version
    WHERE public.campaign_versions.edit_txid IS DISTINCT FROM pg_current_xact_id();
    RETURN NULL;
END
$$;
CREATE TRIGGER campaigns_edited AFTER INSERT ON campaigns
    FOR EACH ROW EXECUTE FUNCTION herald_campaign_edited();
CREATE TRIGGER campaigns_content_edited AFTER UPDATE ON campaigns
    FOR EACH ROW EXECUTE FUNCTION herald_campaign_edited();
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['campaign_conditions', 'banner_contents', 'banner_views', 'alert_contents', 'story_contents', 'story_pages',
                        'local_notifications', 'local_contents']
    LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION herald_campaign_edited()',
                       t || '_edited', t);
    END LOOP;
END
$$;

-- An approval is of the campaign's current version, by a login that did not make it.
CREATE FUNCTION herald_campaign_approvals_guard() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    current record;
BEGIN
    SELECT v.version, v.edited_by, c.key INTO current
    FROM public.campaign_versions v JOIN public.campaigns c ON c.id = v.campaign_id
    WHERE v.campaign_id = NEW.campaign_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no such campaign to approve' USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF NEW.version <> current.version THEN
        RAISE EXCEPTION 'campaign "%" changed since version % was reviewed: it is at version % now; review it again',
            current.key, NEW.version, current.version
            USING ERRCODE = 'check_violation', CONSTRAINT = 'campaign_approvals_current_version';
    END IF;
    IF current.edited_by = session_user THEN
        RAISE EXCEPTION 'four eyes: % made the last change to campaign "%" (version %), so another login must approve it',
            session_user, current.key, current.version
            USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'campaign_approvals_four_eyes';
    END IF;
    NEW.approved_by := session_user;
    NEW.approved_at := now();
    RETURN NEW;
END
$$;
CREATE TRIGGER campaign_approvals_guard BEFORE INSERT ON campaign_approvals
    FOR EACH ROW EXECUTE FUNCTION herald_campaign_approvals_guard();

-- At commit: in a tenant that requires approval, a campaign this transaction activated or
-- changed while active is live only in an approved version. Deferred, so that apply's many
-- statements are judged as the one change they make.
CREATE FUNCTION herald_campaign_needs_approval() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    row_data jsonb := to_jsonb(NEW);
    campaign bigint := CASE WHEN TG_TABLE_NAME = 'campaigns' THEN (row_data ->> 'id')::bigint
                            ELSE (row_data ->> 'campaign_id')::bigint END;
    current record;
BEGIN
    SELECT c.key, c.status, t.require_approval, v.version INTO current
    FROM public.campaigns c JOIN public.tenants t ON t.id = c.tenant_id
    LEFT JOIN public.campaign_versions v ON v.campaign_id = c.id
    WHERE c.id = campaign;
    IF NOT FOUND OR current.status <> 'active' OR NOT current.require_approval THEN
        RETURN NULL;
    END IF;
    -- A campaign live before stays so: its changes come through campaign_versions.
    IF TG_TABLE_NAME = 'campaigns' AND TG_OP = 'UPDATE' AND to_jsonb(OLD) ->> 'status' = 'active' THEN
        RETURN NULL;
    END IF;
    IF NOT EXISTS (SELECT FROM public.campaign_approvals a WHERE a.campaign_id = campaign AND a.version = current.version) THEN
        RAISE EXCEPTION 'campaign "%" needs approval: its tenant requires four eyes, and version % is not approved. Pause it to change it; another login than its last editor runs `herald campaign approve %`, then activate it',
            current.key, current.version, current.key
            USING ERRCODE = 'check_violation', CONSTRAINT = 'campaigns_approved_when_live';
    END IF;
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER campaigns_approved_when_activated AFTER INSERT OR UPDATE OF status ON campaigns
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    EXECUTE FUNCTION herald_campaign_needs_approval();
CREATE CONSTRAINT TRIGGER campaign_versions_approved_when_live AFTER INSERT OR UPDATE ON campaign_versions
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    EXECUTE FUNCTION herald_campaign_needs_approval();

-- Row security as for every tenant table; approvals are audited like campaign rows.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['campaign_versions', 'campaign_approvals']
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY herald_rows ON %I
                        USING (tenant_id BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()))
                        WITH CHECK (tenant_id BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()))', t);
    END LOOP;
END
$$;
CREATE TRIGGER campaign_approvals_audit AFTER INSERT ON campaign_approvals
    FOR EACH ROW EXECUTE FUNCTION herald_audit_row();
DO $$
DECLARE
    definition text := pg_get_functiondef('herald_audit_row()'::regprocedure);
    -- The list's last two of 0016 (0030 adds its tables after them).
    tables text := '''story_contents'', ''story_pages''';
BEGIN
    IF array_length(string_to_array(definition, tables), 1) - 1 <> 1 THEN
        RAISE EXCEPTION 'herald_audit_row() is not as 0016 wrote it: it does not list the audited tables once';
    END IF;
    EXECUTE replace(definition, tables, '''story_contents'', ''story_pages'', ''campaign_approvals''');
END
$$;

-- herald_ensure_access() states every right on every `herald migrate` (0016, 0022, 0026).
ALTER FUNCTION herald_ensure_access() RENAME TO herald_ensure_access_0026;
REVOKE ALL ON FUNCTION herald_ensure_access_0026() FROM PUBLIC;

CREATE FUNCTION herald_ensure_access() RETURNS SETOF text
    LANGUAGE plpgsql SET search_path = public, pg_temp
    AS $$
BEGIN
    RETURN QUERY SELECT note FROM herald_ensure_access_0026() AS note;
    -- Versions are written by the triggers only (each row's login, time and number are the
    -- guard's); approvals are made, never changed or taken back.
    REVOKE ALL ON campaign_versions, campaign_approvals FROM PUBLIC, herald_operator, herald_tenant;
    GRANT SELECT, INSERT, UPDATE (version) ON campaign_versions TO herald_operator, herald_tenant;
    GRANT SELECT, INSERT (campaign_id, version, snapshot) ON campaign_approvals TO herald_operator, herald_tenant;
    GRANT INSERT (tenant_id) ON campaign_approvals TO herald_operator;
    REVOKE ALL ON FUNCTION herald_try_folder_lock(text) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION herald_try_folder_lock(text) TO herald_operator, herald_tenant;
END
$$;
REVOKE ALL ON FUNCTION herald_ensure_access() FROM PUBLIC;

SELECT herald_ensure_access();
