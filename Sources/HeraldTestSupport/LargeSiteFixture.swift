import Foundation
import PostgresClient

/// Fills a migrated database with a large site in a handful of set-based statements:
/// one tenant (`bench` unless named), `apps` apps in de/en/fr (default en), each with `campaignsPerApp`
/// active campaigns (half banners, a quarter alerts, a quarter stories) with content in
/// en and de (fr falls back to en). Needs a superuser connection: triggers are skipped
/// (session_replication_role) to make it fast, so the data is written consistent by hand.
public enum LargeSiteFixture {
    public static func populate(_ connection: Connection, apps: Int, campaignsPerApp: Int, tenant slug: String = "bench") throws {
        try connection.transaction { tx in
            try tx.execute("SET LOCAL session_replication_role = replica")
            let tenant: Int64 = try tx.query(
                "INSERT INTO tenants (slug, name) VALUES ($1::text, initcap($1::text)) RETURNING id", [slug])[0].decode("id")
            try tx.execute(
                """
                INSERT INTO apps (tenant_id, slug, name, platform, bundle_id, default_locale, locales, base_url)
                SELECT $1, 'app-' || i, 'App ' || i, 'ios', 'com.bench.app' || i, 'en', '{de,en,fr}',
                       'https://static.example.com/bench/app-' || i
                FROM generate_series(1, $2::int) i
                """, [tenant, apps])
            try tx.execute(
                """
                INSERT INTO campaigns (tenant_id, app_id, key, kind, name, status, priority, starts_at)
                SELECT a.tenant_id, a.id, 'c-' || j,
                       (CASE j % 4 WHEN 0 THEN 'alert' WHEN 1 THEN 'story' ELSE 'banner' END)::campaign_kind,
                       'Campaign ' || j, 'active', j, timestamptz '2026-01-01' + j * interval '1 hour'
                FROM apps a CROSS JOIN generate_series(1, $2::int) j WHERE a.tenant_id = $1
                """, [tenant, campaignsPerApp])
            let perLocale = UnsafeSQL("FROM campaigns c CROSS JOIN unnest('{de,en}'::text[]) l WHERE c.tenant_id = $1")
            try tx.execute(
                "INSERT INTO banner_contents (tenant_id, campaign_id, locale, entry_view) SELECT c.tenant_id, c.id, l, 'main' \(perLocale) AND c.kind = 'banner'",
                [tenant])
            try tx.execute(
                """
                INSERT INTO banner_views (tenant_id, campaign_id, locale, view_id, position, file_url, height, origin)
                SELECT c.tenant_id, c.id, l, 'main', 0, 'https://cdn.example.com/' || c.id || '/' || l || '.html', 90, 'top'
                \(perLocale) AND c.kind = 'banner'
                """, [tenant])
            try tx.execute(
                """
                INSERT INTO campaign_conditions (tenant_id, campaign_id, kind, grp, type, value)
                SELECT c.tenant_id, c.id, c.kind, g::condition_group, t, v::jsonb
                FROM campaigns c CROSS JOIN (VALUES ('all', 'appVersionLessThan', '"9.0"'), ('any', 'onWifi', 'true'),
                                                    ('any', 'lastDisplayMinimumLaunches', '3')) AS x(g, t, v)
                WHERE c.tenant_id = $1 AND c.kind = 'banner'
                """, [tenant])
            try tx.execute(
                """
                INSERT INTO alert_message_keys (tenant_id, app_id, campaign_id, message_key)
                SELECT c.tenant_id, c.app_id, c.id, to_char(c.starts_at, 'YYYY/MM/DD') || '-' || c.key
                FROM campaigns c WHERE c.tenant_id = $1 AND c.kind = 'alert'
                """, [tenant])
            try tx.execute(
                """
                INSERT INTO alert_contents (tenant_id, campaign_id, locale, title, message, action_url, action_button)
                SELECT c.tenant_id, c.id, l, 'Title ' || c.key || ' & more', 'Message for ' || l || ' <' || c.id || '>',
                       'bench://c/' || c.id, 'Open'
                \(perLocale) AND c.kind = 'alert'
                """, [tenant])
            try tx.execute(
                """
                INSERT INTO story_contents (tenant_id, campaign_id, locale, push_title, push_text)
                SELECT c.tenant_id, c.id, l, 'New', 'Story ' || c.key \(perLocale) AND c.kind = 'story'
                """, [tenant])
            try tx.execute(
                """
                INSERT INTO story_pages (tenant_id, campaign_id, locale, position, image, duration, link, button_title, title)
                SELECT c.tenant_id, c.id, l, p, 'https://cdn.example.com/' || c.id || '/' || p || '.jpg', 4.5, 'bench://p/' || p, 'Open',
                    'Page ' || p
                FROM campaigns c CROSS JOIN unnest('{de,en}'::text[]) l CROSS JOIN generate_series(0, 1) p
                WHERE c.tenant_id = $1 AND c.kind = 'story'
                """, [tenant])
        }
    }
}
