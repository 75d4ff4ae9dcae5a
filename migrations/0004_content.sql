-- Per-locale content, one table per kind. Each row carries its campaign's kind, and the
-- foreign key includes it, so banner content can only hang off a banner campaign.

-- Banner (Notable control.json): an entry view and the views it can move between.
CREATE TABLE banner_contents (
    tenant_id    bigint NOT NULL DEFAULT herald_current_tenant(),
    campaign_id  bigint NOT NULL,
    kind         campaign_kind NOT NULL DEFAULT 'banner' CHECK (kind = 'banner'),
    locale       locale_tag NOT NULL,
    entry_view   slug NOT NULL,
    PRIMARY KEY (tenant_id, campaign_id, locale),
    CONSTRAINT banner_contents_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind)
        REFERENCES campaigns (tenant_id, id, kind)
);

CREATE TABLE banner_views (
    tenant_id    bigint NOT NULL DEFAULT herald_current_tenant(),
    campaign_id  bigint NOT NULL,
    locale       locale_tag NOT NULL,
    view_id      slug NOT NULL,
    position     integer NOT NULL CHECK (position >= 0),
    file_url     http_url,
    inline_html  text,
    height       numeric CHECK (height > 0 AND height < 100000),
    origin       view_origin,
    PRIMARY KEY (tenant_id, campaign_id, locale, view_id),
    CONSTRAINT banner_views_position_key UNIQUE (tenant_id, campaign_id, locale, position),
    CONSTRAINT banner_views_content_fkey FOREIGN KEY (tenant_id, campaign_id, locale)
        REFERENCES banner_contents (tenant_id, campaign_id, locale) ON DELETE CASCADE,
    CONSTRAINT banner_views_one_source CHECK ((file_url IS NULL) <> (inline_html IS NULL))
);

-- The client silently never shows a banner whose entry names no view: say it in SQL.
-- Deferred, because content and its views are written in one transaction.
ALTER TABLE banner_contents
    ADD CONSTRAINT banner_contents_entry_view_fkey FOREIGN KEY (tenant_id, campaign_id, locale, entry_view)
        REFERENCES banner_views (tenant_id, campaign_id, locale, view_id)
        DEFERRABLE INITIALLY DEFERRED;

-- Alert (iNotify notifications.plist).
CREATE TABLE alert_contents (
    tenant_id      bigint NOT NULL DEFAULT herald_current_tenant(),
    campaign_id    bigint NOT NULL,
    kind           campaign_kind NOT NULL DEFAULT 'alert' CHECK (kind = 'alert'),
    locale         locale_tag NOT NULL,
    title          xml_text NOT NULL CHECK (title <> ''),
    message        xml_text NOT NULL CHECK (message <> ''),
    action_url     link_url,
    action_button  xml_text CHECK (action_button <> ''),
    PRIMARY KEY (tenant_id, campaign_id, locale),
    CONSTRAINT alert_contents_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind)
        REFERENCES campaigns (tenant_id, id, kind),
    CONSTRAINT alert_contents_button_needs_url CHECK (action_button IS NULL OR action_url IS NOT NULL)
);

-- Story (Pushwoosh pw_stories): the push's own text plus ordered full-screen pages.
CREATE TABLE story_contents (
    tenant_id    bigint NOT NULL DEFAULT herald_current_tenant(),
    campaign_id  bigint NOT NULL,
    kind         campaign_kind NOT NULL DEFAULT 'story' CHECK (kind = 'story'),
    locale       locale_tag NOT NULL,
    push_title   xml_text CHECK (push_title <> ''),
    push_text    xml_text NOT NULL CHECK (push_text <> ''),
    PRIMARY KEY (tenant_id, campaign_id, locale),
    CONSTRAINT story_contents_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind)
        REFERENCES campaigns (tenant_id, id, kind)
);

CREATE TABLE story_pages (
    tenant_id     bigint NOT NULL DEFAULT herald_current_tenant(),
    campaign_id   bigint NOT NULL,
    locale        locale_tag NOT NULL,
    position      integer NOT NULL CHECK (position >= 0),
    image         http_url NOT NULL,
    duration      numeric CHECK (duration > 0 AND duration < 100000),
    link          link_url,
    button_title  xml_text CHECK (button_title <> ''),
    title         xml_text CHECK (title <> ''),
    subtitle      xml_text CHECK (subtitle <> ''),
    PRIMARY KEY (tenant_id, campaign_id, locale, position),
    CONSTRAINT story_pages_content_fkey FOREIGN KEY (tenant_id, campaign_id, locale)
        REFERENCES story_contents (tenant_id, campaign_id, locale) ON DELETE CASCADE
);
