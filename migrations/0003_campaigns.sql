-- Campaigns and the identities devices remember.
--
-- formats.md: a banner's notification id (its campaign key) and an alert's message key
-- are kept on devices forever, so neither may ever change or be reused within an app.
-- Campaigns are therefore never deleted (archive instead), their key never changes,
-- and every message key an app ever used stays in alert_message_keys.

CREATE TABLE campaigns (
    tenant_id   bigint NOT NULL DEFAULT herald_current_tenant(),
    app_id      bigint NOT NULL,
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key         slug NOT NULL,
    kind        campaign_kind NOT NULL,
    name        xml_text NOT NULL CHECK (name <> ''),
    status      campaign_status NOT NULL DEFAULT 'draft',
    starts_at   timestamptz,
    ends_at     timestamptz,
    priority    integer NOT NULL DEFAULT 0,
    locales     locale_tag[],          -- NULL: every locale of the app
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT campaigns_app_fkey FOREIGN KEY (tenant_id, app_id) REFERENCES apps (tenant_id, id),
    CONSTRAINT campaigns_key_key UNIQUE (tenant_id, app_id, key),
    CONSTRAINT campaigns_tenant_id_id_kind_key UNIQUE (tenant_id, id, kind),
    CONSTRAINT campaigns_tenant_app_id_kind_key UNIQUE (tenant_id, app_id, id, kind),
    CONSTRAINT campaigns_schedule_order CHECK (ends_at > starts_at),
    CONSTRAINT campaigns_locales_nonempty CHECK (cardinality(locales) >= 1)
);
CREATE INDEX campaigns_active_idx ON campaigns (tenant_id, app_id) WHERE status = 'active';

CREATE TRIGGER campaigns_touch BEFORE UPDATE ON campaigns
    FOR EACH ROW EXECUTE FUNCTION herald_touch_updated_at();

CREATE FUNCTION herald_campaigns_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'campaigns are never deleted: archive "%" instead', OLD.key
            USING ERRCODE = 'restrict_violation', CONSTRAINT = 'campaigns_never_deleted';
    END IF;
    IF NEW.key <> OLD.key THEN
        RAISE EXCEPTION 'a campaign key cannot change: devices remember "%"', OLD.key
            USING ERRCODE = 'check_violation', CONSTRAINT = 'campaigns_key_immutable';
    END IF;
    IF NEW.kind <> OLD.kind OR NEW.app_id <> OLD.app_id OR NEW.tenant_id <> OLD.tenant_id THEN
        RAISE EXCEPTION 'a campaign''s kind and app cannot change' USING ERRCODE = 'check_violation',
            CONSTRAINT = 'campaigns_kind_app_immutable';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER campaigns_guard BEFORE UPDATE OR DELETE ON campaigns
    FOR EACH ROW EXECUTE FUNCTION herald_campaigns_guard();

-- Every message key an alert campaign was ever given; the newest (highest seq) is current.
CREATE TABLE alert_message_keys (
    tenant_id    bigint NOT NULL DEFAULT herald_current_tenant(),
    app_id       bigint NOT NULL,
    campaign_id  bigint NOT NULL,
    kind         campaign_kind NOT NULL DEFAULT 'alert' CHECK (kind = 'alert'),
    message_key  message_key NOT NULL,
    seq          bigint GENERATED ALWAYS AS IDENTITY,
    assigned_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, app_id, message_key),
    CONSTRAINT alert_message_keys_campaign_fkey FOREIGN KEY (tenant_id, app_id, campaign_id, kind)
        REFERENCES campaigns (tenant_id, app_id, id, kind)
);
CREATE INDEX alert_message_keys_campaign_idx ON alert_message_keys (tenant_id, campaign_id, seq);

CREATE FUNCTION herald_message_keys_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'message keys are permanent: devices remember them'
        USING ERRCODE = 'restrict_violation', CONSTRAINT = 'alert_message_keys_permanent';
END
$$;
CREATE TRIGGER alert_message_keys_guard BEFORE UPDATE OR DELETE ON alert_message_keys
    FOR EACH ROW EXECUTE FUNCTION herald_message_keys_guard();

-- Targeting. A group is a map on the device (Notable reads `all`/`any` as JSON objects),
-- so a type appears at most once per group. `kind` is carried so SQL can check which
-- types a kind can express: banner the seven Notable types, alert iNotify's version bounds.
CREATE TABLE campaign_conditions (
    tenant_id    bigint NOT NULL DEFAULT herald_current_tenant(),
    campaign_id  bigint NOT NULL,
    kind         campaign_kind NOT NULL,
    grp          condition_group NOT NULL,
    type         text NOT NULL,
    value        jsonb NOT NULL,
    PRIMARY KEY (tenant_id, campaign_id, grp, type),
    CONSTRAINT campaign_conditions_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind)
        REFERENCES campaigns (tenant_id, id, kind),
    CONSTRAINT campaign_conditions_kind_type CHECK (
        (kind = 'banner' AND type IN ('onWifi', 'neverDisplayed', 'lastDisplayMinimumSeconds',
            'lastDisplayMinimumLaunches', 'flagNotSet', 'iOSVersionLessThan', 'appVersionLessThan'))
        OR (kind = 'alert' AND grp = 'all' AND type IN ('minAppVersion', 'maxAppVersion'))
    ),
    CONSTRAINT campaign_conditions_value_type CHECK (
        CASE
            WHEN type IN ('onWifi', 'neverDisplayed') THEN jsonb_typeof(value) = 'boolean'
            WHEN type IN ('lastDisplayMinimumSeconds', 'lastDisplayMinimumLaunches') THEN
                jsonb_typeof(value) = 'number' AND (value #>> '{}') ~ '^[0-9]+$'
            WHEN type = 'flagNotSet' THEN jsonb_typeof(value) = 'string' AND (value #>> '{}') <> ''
            ELSE jsonb_typeof(value) = 'string'
                AND (value #>> '{}') ~ '^[0-9]+(\.[0-9]+)*$' AND length(value #>> '{}') <= 64
        END
    )
);
