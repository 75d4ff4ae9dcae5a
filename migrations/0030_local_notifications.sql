-- Local notifications (issue #26): a fourth kind of campaign, `local`, a notification the
-- app schedules on the device itself (seed 004's UILocalNotification; Herald's client is
-- clients/HeraldLocalNotifications.swift). And a story's push gets a sound and a badge.
--
-- A local campaign has one notification (when it fires and repeats, its badge, sound,
-- launch image, whether it has an action, the app's userInfo pairs), the same in every
-- locale, and words per locale (alertBody, alertAction). Its campaign key is its identity on
-- devices, which cancel it by that key: like every campaign key it never changes and is never
-- reused in the app (0003's guard).
--
-- PostgreSQL lets a transaction add an enum value but not use it before it commits, and each
-- migration is one transaction: below, 'local' is compared and defaulted as text
-- (`kind::text = 'local'`, `'local'::text::campaign_kind`), which the server turns into the
-- enum value only when a row is written, after this migration has committed.

ALTER TYPE campaign_kind ADD VALUE 'local';

-- The calendar unit a local notification repeats by (UILocalNotification's repeatInterval).
-- iOS repeats none more often than every minute.
CREATE TYPE calendar_unit AS ENUM ('minute', 'hour', 'day', 'week', 'month', 'year');

-- A file of the app's bundle by its plain name: no folder, not hidden (HeraldCore's
-- BundleFileName says the same, first).
CREATE DOMAIN bundle_file_name AS text
    CHECK (VALUE ~ '^[A-Za-z0-9_@~+-][A-Za-z0-9 _.@~+-]{0,254}$' AND VALUE !~ ' $');

-- A notification's sound: `default` (the system's), or a sound file iOS plays (.caf, .aif,
-- .aiff, .wav; for any other name it plays the default sound instead) by its plain name.
CREATE DOMAIN sound_name AS text
    CHECK (VALUE = 'default'
           OR (VALUE ~ '^[A-Za-z0-9_@~+-][A-Za-z0-9 _.@~+-]{0,254}$' AND VALUE !~ ' $' AND VALUE ~* '\.(caf|aif|aiff|wav)$'));

-- A local campaign's notification: one row per campaign.
CREATE TABLE local_notifications (
    tenant_id        bigint NOT NULL DEFAULT herald_current_tenant(),
    campaign_id      bigint NOT NULL,
    kind             campaign_kind NOT NULL DEFAULT 'local'::text::campaign_kind CHECK (kind::text = 'local'),
    -- fireDate: an instant (timeZone nil: the same moment everywhere), or a wall-clock time
    -- on each device's own clock (timeZone the device's: 09:00 stays 09:00 where it goes).
    fire_at          timestamptz,
    fire_wall_clock  timestamp,
    repeat_interval  calendar_unit,
    -- applicationIconBadgeNumber (0 removes the badge; NULL leaves it as it is).
    badge            integer CHECK (badge BETWEEN 0 AND 99999),
    sound            sound_name,
    launch_image     bundle_file_name,
    has_action       boolean NOT NULL DEFAULT true,
    -- The app's own userInfo pairs: plain names, text values; `key` is Herald's (the campaign key).
    user_info        jsonb NOT NULL DEFAULT '{}',
    PRIMARY KEY (tenant_id, campaign_id),
    CONSTRAINT local_notifications_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind)
        REFERENCES campaigns (tenant_id, id, kind),
    CONSTRAINT local_notifications_one_fire_time CHECK ((fire_at IS NULL) <> (fire_wall_clock IS NULL)),
    CONSTRAINT local_notifications_user_info_pairs CHECK (
        jsonb_typeof(user_info) = 'object'
        AND NOT user_info ? 'key'
        AND NOT jsonb_path_exists(user_info, '$.* ? (@.type() != "string")')
        AND NOT jsonb_path_exists(user_info, '$.keyvalue() ? (!(@.key like_regex "^[A-Za-z][A-Za-z0-9_.-]{0,63}$"))'))
);

-- Its words in one locale: alertBody, and alertAction (NULL: iOS's own label, View).
-- A campaign's words hang off its notification.
CREATE TABLE local_contents (
    tenant_id    bigint NOT NULL DEFAULT herald_current_tenant(),
    campaign_id  bigint NOT NULL,
    kind         campaign_kind NOT NULL DEFAULT 'local'::text::campaign_kind CHECK (kind::text = 'local'),
    locale       locale_tag NOT NULL,
    body         xml_text NOT NULL CHECK (body <> ''),
    action       xml_text CHECK (action <> ''),
    PRIMARY KEY (tenant_id, campaign_id, locale),
    CONSTRAINT local_contents_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind)
        REFERENCES campaigns (tenant_id, id, kind),
    CONSTRAINT local_contents_notification_fkey FOREIGN KEY (tenant_id, campaign_id)
        REFERENCES local_notifications (tenant_id, campaign_id)
);

COMMENT ON TABLE local_notifications IS
    'A local campaign''s notification (UILocalNotification but for its words): fire time, repeat, badge, sound, launch image, action, userInfo';
COMMENT ON TABLE local_contents IS 'A local campaign''s words in one locale: alertBody and alertAction';

-- A story's push sound and badge (Pushwoosh's ios_sound and ios_badges): a number, or a change
-- of the badge Pushwoosh keeps per device (+1, -1).
ALTER TABLE campaigns
    ADD COLUMN push_sound sound_name,
    ADD COLUMN push_badge text CONSTRAINT campaigns_push_badge_form CHECK (push_badge ~ '^([0-9]{1,5}|[+-][1-9][0-9]{0,4})$'),
    ADD CONSTRAINT campaigns_push_only_stories CHECK (kind = 'story' OR (push_sound IS NULL AND push_badge IS NULL));

-- Tenant tables like every other: the rows policy of 0015/0016, forced.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['local_notifications', 'local_contents']
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY herald_rows ON %I
                        USING (tenant_id BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()))
                        WITH CHECK (tenant_id BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()))', t);
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION herald_audit_row()',
                       t || '_audit', t);
    END LOOP;
END
$$;

-- The audit trigger audits Herald's own tables only, by name (0016), and the rights on every
-- content table are stated by herald_ensure_access() on every `herald migrate`: its 0016 body
-- names them. Both gain the two tables in place, through their own definitions, rather than
-- being written out again (as 0023 and 0028 do).
DO $$
DECLARE
    audit text := pg_get_functiondef('herald_audit_row()'::regprocedure);
    access text := pg_get_functiondef('herald_ensure_access_0016()'::regprocedure);
    audited text := '''story_contents'', ''story_pages'') THEN';
    named text := '''story_contents'', ''story_pages'', ''audit_log''';
    granted text := 'story_contents, story_pages TO herald_operator, herald_tenant';
BEGIN
    IF array_length(string_to_array(audit, audited), 1) - 1 <> 1 THEN
        RAISE EXCEPTION 'herald_audit_row() is not as 0016 wrote it: it does not end its list of tables with story_pages once';
    END IF;
    IF array_length(string_to_array(access, named), 1) - 1 <> 1 OR array_length(string_to_array(access, granted), 1) - 1 <> 1 THEN
        RAISE EXCEPTION 'herald_ensure_access_0016() is not as 0016 wrote it: it does not name story_pages once in its list and once in its grant';
    END IF;
    EXECUTE replace(audit, audited, '''story_contents'', ''story_pages'', ''local_notifications'', ''local_contents'') THEN');
    EXECUTE replace(
        replace(access, named, '''story_contents'', ''story_pages'', ''local_notifications'', ''local_contents'', ''audit_log'''),
        granted, 'story_contents, story_pages, local_notifications, local_contents TO herald_operator, herald_tenant');
END
$$;

SELECT herald_ensure_access();
