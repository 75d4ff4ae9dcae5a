import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldStore

/// Herald's validation error (ArgumentParser has one of the same name).
typealias ValidationError = HeraldCore.ValidationError

/// sysexits(3) codes; what each means to a user is in docs/exit-codes.md.
enum ExitStatus {
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let unavailable: Int32 = 69
    static let software: Int32 = 70
    static let cannotCreate: Int32 = 73
    static let noPermission: Int32 = 77
    /// Stopped by Ctrl-C (128 + SIGINT, as shells report it), after a clean stop.
    static let interrupted: Int32 = 130
    static let tempFail: Int32 = 75
}

/// Runs a command body; any failure becomes one message per problem on stderr and the
/// matching exit code. Nothing else in the CLI prints errors.
func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ExitCode {
        throw error
    } catch let error as CleanExit {
        throw error
    } catch {
        let (lines, code) = describe(error)
        for line in lines {
            Console.current.writeError("herald: \(terminalSafe(line))\n")
        }
        throw ExitCode(code)
    }
}

private func describe(_ error: any Error) -> ([String], Int32) {
    switch error {
    case let error as StoreError:
        switch error {
        case .invalid(let problems): return (problems, ExitStatus.dataError)
        case .notFound, .conflict, .schema: return ([error.description], ExitStatus.dataError)
        case .unavailable(let message):
            // Gone in the middle of the work: what committed stays; a new run finishes the rest.
            let hint = message.hasPrefix("lost the connection") ? "; run the command again once the server is back" : ""
            return (["database unavailable: \(message)\(hint)"], ExitStatus.unavailable)
        case .busy(let message): return ([message], ExitStatus.tempFail)
        case .permissionDenied(let message):
            return ([message.hasPrefix("permission denied") ? message : "permission denied: \(message)"], ExitStatus.noPermission)
        case .database(let message): return (["database error: \(message)"], ExitStatus.software)
        }
    case let error as ValidationError:
        return ([error.description], ExitStatus.dataError)
    case let error as ValidationErrors:
        return (error.errors.map(\.description), ExitStatus.dataError)
    case let error as InputError:
        return ([error.message], error.code)
    case let error as JobError:
        let code: Int32 =
            switch error.kind {
            case .usage: ExitStatus.usage
            case .invalid: ExitStatus.dataError
            case .noInput: ExitStatus.noInput
            case .cannotWrite: ExitStatus.cannotCreate
            case .noPermission: ExitStatus.noPermission
            }
        return ([error.message], code)
    case let error as PublishJobError:
        switch error {
        case .busy:
            return (["another publish is running; try again later, or pass --wait to wait for it"], ExitStatus.tempFail)
        case .invalidSite(let problems):
            return (problems, ExitStatus.dataError)
        case .runNotRestorable(let run, let outcome):
            return (
                ["run \(run) did not finish a site (outcome \(outcome)); pick a succeeded run from `herald publish --history`"],
                ExitStatus.dataError)
        case .contentNotKept(let run, let path):
            return (["run \(run) refers to \(path), whose content is not kept"], ExitStatus.dataError)
        case .cannotWriteSite(let out, let reason):
            return (["cannot write the site under \(out.path): \(reason)"], ExitStatus.cannotCreate)
        }
    case let error as EmbeddedDatabaseError:
        return ([error.description], ExitStatus.cannotCreate)
    case let error as EventIngestError:
        switch error {
        case .inputUnreadable(let path, let reason): return (["cannot read \(path): \(reason)"], ExitStatus.noInput)
        case .inputFailed(let reason): return (["cannot read the input: \(reason)"], ExitStatus.software)
        case .malformedInput(let problem): return ([problem], ExitStatus.dataError)
        case .rejectsUnwritable(let path): return (["cannot write the rejects file \(path)"], ExitStatus.cannotCreate)
        case .interrupted(let stored, StoreError.unavailable(let message)):
            // The database went away: 69 as for any command, and what was stored stays stored.
            return (
                ["database unavailable: \(message)\n\(stored) event(s) were stored before this failure; run the same input "
                    + "again to finish (stored events count as duplicates, never twice)"],
                ExitStatus.unavailable)
        case .interrupted(let stored, let reason):
            return (
                ["\(reason)\n\(stored) event(s) were stored before this failure; run the same input again "
                    + "to finish (stored events count as duplicates, never twice)"],
                ExitStatus.software)
        }
    default:
        return (["\(error)"], ExitStatus.software)
    }
}

/// A message as it may reach a terminal: each line at most `limit` characters (cut with "…"),
/// control characters and other invisible ones shown as escapes. Messages quote bounded
/// excerpts of the input already; this is the net under all of them (and under the argument
/// parser's own messages, which quote whole arguments).
func terminalSafe(_ message: String, limit: Int = 1000) -> String {
    // One line (nearly every message, thousands of publish warnings): no splitting by characters.
    if !message.utf8.contains(UInt8(ascii: "\n")) { return Excerpt.plain(message, limit: limit) }
    return message.split(separator: "\n", omittingEmptySubsequences: false).map { Excerpt.plain(String($0), limit: limit) }
        .joined(separator: "\n")
}

/// A problem with what the user gave, found by the CLI itself (a file it cannot read...).
struct InputError: Error {
    let message: String
    var code: Int32 = ExitStatus.dataError
}
