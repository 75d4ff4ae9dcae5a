import HeraldCore
import PostgresClient

/// Everything the store can refuse, in words a person can act on. The CLI maps each case
/// to a sysexits code; none of them ever shows a raw SQLSTATE or a bound value.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Input that breaks a rule (one line per problem). sysexits 65.
    case invalid([String])
    /// A named thing does not exist; `listCommand` shows what does. sysexits 65.
    case notFound(what: String, name: String, listCommand: String)
    /// A clash with what exists (taken slug, reused key). sysexits 65.
    case conflict(String)
    /// The database cannot be reached. sysexits 69.
    case unavailable(String)
    /// The schema is not what this binary expects (pending, edited or newer migrations). sysexits 65.
    case schema(String)
    /// Another run holds the lock. sysexits 75.
    case busy(String)
    /// The login may not do this: another tenant's rows, or work only Herald's own login does. sysexits 77.
    case permissionDenied(String)
    /// A database failure we did not foresee; the message is PostgreSQL's (never bound values).
    case database(String)

    public var description: String {
        switch self {
        case .invalid(let problems): problems.joined(separator: "\n")
        case .notFound(let what, let name, let listCommand):
            "\(what) \"\(name)\" does not exist; `\(listCommand)` lists what does"
        case .conflict(let message), .unavailable(let message), .schema(let message),
            .busy(let message), .permissionDenied(let message), .database(let message):
            message
        }
    }
}

extension StoreError {
    static func invalid(_ errors: [ValidationError]) -> StoreError {
        .invalid(errors.map(\.description))
    }

    /// Translates a PostgreSQL failure into words. Constraints that HeraldCore checks first
    /// rarely reach this point; when they do (a race, raw input), the message still says what.
    static func from(_ error: PostgresError) -> StoreError {
        var error = error
        // libpq's and the server's words on one line (they come with tabs and newlines).
        error.message = error.message.split(whereSeparator: { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == " " })
            .joined(separator: " ")
        // The server answered and refused the login: not a server that is down, a login to fix.
        if let refusal = loginRefusal(error) { return refusal }
        // Unreachable, or gone in the middle of the work (shut down, restarted, the backend
        // terminated): nothing is wrong with the input, and running the command again finishes it.
        if error.isConnectionLost {
            return .unavailable(error.message)
        }
        if let constraint = error.constraint, let words = translatedConstraints[constraint] {
            return error.isUniqueViolation ? .conflict(words) : .invalid([words])
        }
        if let state = error.sqlState, invalidInputStates.contains(state) {
            return .invalid([error.message])
        }
        if error.isUniqueViolation {
            return .conflict("that already exists (\(error.constraint ?? error.message))")
        }
        if error.sqlState == .insufficientPrivilege {
            return .permissionDenied(error.message)
        }
        if error.sqlState == .lockNotAvailable {
            return .busy(error.message)
        }
        return .database(error.description)
    }

    /// A connection the server refused for who asked (a wrong password, an unknown role, a
    /// login pg_hba.conf does not let in), said as what to fix.
    static func loginRefusal(_ error: PostgresError) -> StoreError? {
        guard error.kind == .connection else { return nil }
        let message = error.message
        let refusals = [
            "password authentication failed", "no password supplied", "pg_hba.conf rejects", "Peer authentication failed",
            "Ident authentication failed", "authentication failed for user",
        ]
        let roleMissing = message.contains("FATAL:") && message.contains("role \"") && message.contains("does not exist")
        guard refusals.contains(where: { message.contains($0) }) || roleMissing else { return nil }
        return .permissionDenied(
            "the server refused the login: \(message); check the user and password of HERALD_DATABASE_URL "
                + "(or PGUSER, PGPASSWORD, ~/.pgpass)")
    }

    /// Failures whose message is PostgreSQL's own words about the input: a trigger's RAISE, a
    /// rule the schema states (CHECK, NOT NULL, a refused delete) or text that is not of its type.
    static let invalidInputStates: Set<SQLState> = [
        .raiseException, .restrictViolation, .checkViolation, .notNullViolation, .invalidTextRepresentation,
        .datetimeFieldOverflow,
    ]

    /// Constraints from migrations/ (rows of `pg_constraint`), said in words.
    static let constraintMessages: [String: String] = [
        "tenants_slug_key": "a tenant with that slug already exists",
        "apps_slug_key": "this tenant already has an app with that slug",
        "apps_default_locale_supported": "the default locale must be one of the app's locales",
        "campaigns_key_key":
            "this app already has a campaign with that key (keys are never reused, even after archive: devices remember them)",
        "campaigns_schedule_order": "a campaign must end after it starts",
        "alert_message_keys_pkey":
            "that message key was already used in this app (devices remember message keys forever)",
        "alert_message_keys_case_insensitive_key":
            "this app already used a message key that differs from that one only in case; iNotify sorts keys case-insensitively, "
            + "so the two would have no defined order on devices: choose another key",
        "campaign_conditions_kind_type": "this kind of campaign cannot take that condition",
        "banner_contents_entry_view_fkey":
            "a banner's entry must name one of its views (otherwise the client never shows it)",
        "banner_views_one_source": "a banner view needs exactly one of file= or html=",
        "local_notifications_one_fire_time":
            "a local notification fires at one time: an instant (with a zone) or a wall-clock time (without one)",
        "local_notifications_user_info_pairs":
            "userInfo pairs need plain names (not key, Herald's) and text values",
        "local_contents_notification_fkey": "a local campaign's words need its notification (a fire time) first",
        "campaigns_push_only_stories": "only story campaigns have a push sound and badge",
        "campaigns_push_badge_form": "a push badge is a number from 0 to 99999, or a change, +1 or -1",
    ]

    /// Rules no table constraint can state, which the migrations' trigger functions raise under
    /// a constraint name of their own (`RAISE … USING CONSTRAINT = '…'`), said in words.
    static let triggerRuleMessages: [String: String] = [
        "apps_slug_immutable": "an app's slug cannot change (it names its published folder)",
        "campaigns_key_immutable": "a campaign's key cannot change: devices remember it",
        "campaigns_kind_app_immutable": "a campaign's kind and app cannot change",
        "campaigns_never_deleted": "campaigns are never deleted: archive them instead",
        "alert_message_keys_permanent": "message keys are permanent: devices remember them",
    ]

    /// Every name `from` says in words: both tables (their names never overlap).
    static let translatedConstraints = constraintMessages.merging(triggerRuleMessages) { constraint, _ in constraint }
}
