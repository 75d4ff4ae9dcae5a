import Foundation
import HeraldCore
import HeraldStore

/// How every command reaches its database: the configured server (checked to carry exactly
/// this binary's schema), else Herald's own local PostgreSQL, made ready and migrated on the
/// way; then the login is checked for Herald work (an analyst's is refused).
public enum DatabaseOpening {
    /// `configured`: the server the environment names, if any; `environment`: for the local
    /// one (HERALD_HOME, ...); `note`: what was done on the way (a cluster created, started).
    /// `ownerOnly`: the work, when only Herald's own login may do it. `spare`: a second
    /// connection is opened beside the first, for work that will need two (`connectAgain`
    /// hands it out): the two server processes then start at once.
    public static func open(
        configured: DatabaseLocation?, environment: [String: String], actor: String, requireCurrentSchema: Bool = true,
        ownerOnly: String? = nil, spare: Bool = false, note: (String) -> Void
    ) throws -> HeraldDatabase {
        let spareLocation = spare ? configured ?? (try? EmbeddedDatabase(environment: environment))?.readyLocation : nil
        let opening = spareLocation.map { location in BackgroundMade { try HeraldDatabase(location: location, actor: actor) } }
        let database: HeraldDatabase
        if let configured {
            database = try HeraldDatabase(location: configured, actor: actor)
            // Who the login is comes first: an analyst's login is refused as one, whatever
            // else it may not read.
            if let refusal = try database.login().refusalOfHeraldWork { throw refusal }
            if requireCurrentSchema { try database.requireCurrentSchema() }
        } else {
            let (local, notes) = try EmbeddedDatabase(environment: environment).open(actor: actor)
            notes.forEach(note)
            database = local
        }
        if let refusal = try database.login().refusalOfHeraldWork { throw refusal }
        if let ownerOnly { try database.requireOwner(to: ownerOnly) }
        if let opening { database.keepSpare(opening) }
        return database
    }

    /// The database's location: the configured one, else the local one made ready (created,
    /// started) on the way, for work that connects by itself (`demo`, `whoami`).
    public static func location(configured: DatabaseLocation?, environment: [String: String], note: (String) -> Void) throws
        -> DatabaseLocation
    {
        if let configured { return configured }
        let embedded = try EmbeddedDatabase(environment: environment)
        try embedded.prepare().forEach(note)
        return embedded.location
    }

    /// Refuses to make Herald's local PostgreSQL on the way to publishing into `folder` when
    /// the folder holds a site already: it was published from a database, and a new, empty
    /// one would replace that site (a cron job that lacks the shell's HERALD_DATABASE_URL).
    public static func refuseANewLocalDatabase(
        publishingInto folder: URL, configured: DatabaseLocation?, environment: [String: String]
    ) throws {
        guard configured == nil, !(try EmbeddedDatabase(environment: environment).isInitialized) else { return }
        let manifest = folder.appendingPathComponent(".herald-manifest")
        guard FileManager.default.fileExists(atPath: manifest.path) else { return }
        throw JobError(
            .cannotWrite,
            "\(folder.path) holds a published site, but no database is configured (HERALD_DATABASE_URL or PG*) and Herald's "
                + "local PostgreSQL does not exist yet: a new, empty one would replace that site. Set HERALD_DATABASE_URL to the "
                + "database that published it (cron jobs do not see your shell's variables)")
    }
}
