import HeraldCore
import HeraldPublish
import HeraldStore

/// What went wrong, in words a person can act on, and what kind of problem it is — for any
/// error a use case throws. The CLI prints the lines and exits with the kind's sysexits
/// code; long-running doors (a collector, a watching publisher) log the same lines.
public struct Failure: Sendable {
    public enum Kind: Sendable {
        case usage, invalid, noInput, unavailable, software, cannotWrite, busy, noPermission
    }

    /// One line per problem.
    public let lines: [String]
    public let kind: Kind

    public init(_ error: any Error) {
        (lines, kind) = Self.describe(error)
    }

    private static func describe(_ error: any Error) -> ([String], Kind) {
        switch error {
        case let error as StoreError:
            switch error {
            case .invalid(let problems): return (problems, .invalid)
            case .notFound, .conflict, .schema: return ([error.description], .invalid)
            case .unavailable(let message):
                // Gone in the middle of the work: what committed stays; a new run finishes the rest.
                let hint = message.hasPrefix("lost the connection") ? "; run the command again once the server is back" : ""
                return (["database unavailable: \(message)\(hint)"], .unavailable)
            case .busy(let message): return ([message], .busy)
            case .permissionDenied(let message):
                return ([message.hasPrefix("permission denied") ? message : "permission denied: \(message)"], .noPermission)
            case .database(let message): return (["database error: \(message)"], .software)
            }
        case let error as ValidationError:
            return ([error.description], .invalid)
        case let error as ValidationErrors:
            return (error.errors.map(\.description), .invalid)
        case let error as JobError:
            let kind: Kind =
                switch error.kind {
                case .usage: .usage
                case .invalid: .invalid
                case .noInput: .noInput
                case .cannotWrite: .cannotWrite
                case .noPermission: .noPermission
                }
            return ([error.message], kind)
        case let error as PublishJobError:
            switch error {
            case .busy:
                return (["another publish is running; try again later, or pass --wait to wait for it"], .busy)
            case .invalidSite(let problems):
                return (problems, .invalid)
            case .runNotRestorable(let run, let outcome):
                return (
                    ["run \(run) did not finish a site (outcome \(outcome)); pick a succeeded run from `herald publish --history`"],
                    .invalid)
            case .contentNotKept(let run, let path):
                return (["run \(run) refers to \(path), whose content is not kept"], .invalid)
            case .foreignFolder(let out, let ours, let theirs) where theirs.purpose == .board:
                return (
                    ["\(out.path) holds a review board (`herald board`), which a publish would replace: publish into another "
                        + "folder (the board's installation: \(theirs.installation), this database's: \(ours.installation))"],
                    .cannotWrite)
            case .foreignFolder(let out, let ours, let theirs):
                return (
                    ["\(out.path) was published from another Herald database (installation \(theirs.installation)); this one is "
                        + "installation \(ours.installation). Publishing here would replace that site with this database's "
                        + "(an empty database made by a cron job without HERALD_DATABASE_URL would wipe it). Point "
                        + "HERALD_DATABASE_URL at the database that published it, or pass --adopt to take the folder over on purpose"],
                    .cannotWrite)
            case .cannotWriteSite(let out, let reason):
                return (["cannot write the site under \(out.path): \(FileProblem.describe(reason))"], .cannotWrite)
            }
        case let error as EmbeddedDatabaseError:
            return ([error.description], .cannotWrite)
        case let error as EventIngestError:
            switch error {
            case .inputUnreadable(let path, let reason): return (["cannot read \(path): \(reason)"], .noInput)
            case .inputFailed(let reason): return (["cannot read the input: \(reason)"], .software)
            case .malformedInput(let problem): return ([problem], .invalid)
            case .rejectsUnwritable(let path): return (["cannot write the rejects file \(path)"], .cannotWrite)
            case .interrupted(let stored, StoreError.unavailable(let message)):
                // The database went away: 69 as for any command, and what was stored stays stored.
                return (
                    ["database unavailable: \(message)\n\(stored) event(s) were stored before this failure; run the same input "
                        + "again to finish (stored events count as duplicates, never twice)"],
                    .unavailable)
            case .interrupted(let stored, let reason):
                return (
                    ["\(reason)\n\(stored) event(s) were stored before this failure; run the same input again "
                        + "to finish (stored events count as duplicates, never twice)"],
                    .software)
            }
        default:
            return (["\(error)"], .software)
        }
    }
}
