-- Who changed what: written by triggers, so no code path can forget it.
-- The actor comes from the `herald.actor` setting (the CLI sets the OS user or
-- HERALD_ACTOR), else the database session user.

CREATE TABLE audit_log (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id  bigint NOT NULL,
    at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor      text NOT NULL,
    action     text NOT NULL CHECK (action IN ('insert', 'update', 'delete')),
    entity     text NOT NULL,
    entity_id  text,
    before     jsonb,
    after      jsonb
);
CREATE INDEX audit_log_tenant_at_idx ON audit_log (tenant_id, at);

CREATE FUNCTION herald_audit_row() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    old_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END;
    new_row jsonb := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN to_jsonb(NEW) END;
    row_data jsonb := coalesce(new_row, old_row);
BEGIN
    IF TG_OP = 'UPDATE' AND (old_row - 'updated_at') = (new_row - 'updated_at') THEN
        RETURN NULL;  -- nothing really changed
    END IF;
    INSERT INTO audit_log (tenant_id, actor, action, entity, entity_id, before, after)
    VALUES (
        CASE WHEN TG_TABLE_NAME = 'tenants' THEN (row_data ->> 'id')::bigint
             ELSE (row_data ->> 'tenant_id')::bigint END,
        coalesce(nullif(current_setting('herald.actor', true), ''), session_user),
        lower(TG_OP),
        TG_TABLE_NAME,
        -- A readable id: the row's own key or slug, else its campaign plus what the row is.
        concat_ws(' ',
            coalesce(row_data ->> 'key', row_data ->> 'slug', row_data ->> 'message_key',
                     (SELECT c.key FROM campaigns c WHERE c.id = (row_data ->> 'campaign_id')::bigint),
                     'campaign#' || (row_data ->> 'campaign_id')),
            row_data ->> 'locale',
            row_data ->> 'view_id',
            CASE WHEN TG_TABLE_NAME = 'story_pages' THEN 'page#' || (row_data ->> 'position') END,
            (row_data ->> 'grp') || '.' || (row_data ->> 'type')),
        old_row,
        new_row
    );
    RETURN NULL;
END
$$;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['tenants', 'apps', 'campaigns', 'alert_message_keys', 'campaign_conditions',
                             'banner_contents', 'banner_views', 'alert_contents', 'story_contents', 'story_pages']
    LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I
                        FOR EACH ROW EXECUTE FUNCTION herald_audit_row()', t || '_audit', t);
    END LOOP;
END
$$;

-- The log is append-only for everyone Herald runs as.
CREATE FUNCTION herald_audit_log_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only' USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER audit_log_guard BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION herald_audit_log_guard();
