-- Apps of the session's tenant (AppRepository): row-level security confines every statement
-- to it. The apps come back in AppRepository's columns.

-- name: insert-app
INSERT INTO apps (slug, name, platform, bundle_id, default_locale, locales, base_url)
VALUES (:slug, :name, :platform::app_platform, :bundle_id, :default_locale, :locales::text[]::locale_tag[], :base_url)
RETURNING id, slug, name, platform::text AS platform, bundle_id, default_locale,
          locales::text[] AS locales, base_url, created_at, updated_at;

-- name: list-apps
SELECT id, slug, name, platform::text AS platform, bundle_id, default_locale,
       locales::text[] AS locales, base_url, created_at, updated_at
FROM apps
ORDER BY slug;

-- name: find-app
SELECT id, slug, name, platform::text AS platform, bundle_id, default_locale,
       locales::text[] AS locales, base_url, created_at, updated_at
FROM apps
WHERE slug = :slug;

-- name: update-app
-- Every field but the slug, which never changes (it names the app's published folder).
UPDATE apps
SET name = :name, platform = :platform::app_platform, bundle_id = :bundle_id, default_locale = :default_locale,
    locales = :locales::text[]::locale_tag[], base_url = :base_url
WHERE slug = :slug;
