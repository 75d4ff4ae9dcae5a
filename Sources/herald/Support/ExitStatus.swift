import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldText

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
    if let error = error as? InputError { return ([error.message], error.code) }
    let failure = Failure(error)
    let code: Int32 =
        switch failure.kind {
        case .usage: ExitStatus.usage
        case .invalid: ExitStatus.dataError
        case .noInput: ExitStatus.noInput
        case .unavailable: ExitStatus.unavailable
        case .software: ExitStatus.software
        case .cannotWrite: ExitStatus.cannotCreate
        case .busy: ExitStatus.tempFail
        case .noPermission: ExitStatus.noPermission
        }
    return (failure.lines, code)
}

/// A problem with what the user gave, found by the CLI itself (a file it cannot read...).
struct InputError: Error {
    let message: String
    var code: Int32 = ExitStatus.dataError
}
