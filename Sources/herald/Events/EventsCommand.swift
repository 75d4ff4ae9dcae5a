import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldStore
import HeraldText

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Per-device delivery history: ingest what devices report, prune old raw events.",
        subcommands: [Ingest.self, Prune.self])

    struct Ingest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ingest",
            abstract: "Store delivery events from an NDJSON or CSV file (or - for standard input).",
            discussion: """
                One event per line (NDJSON) or per record (CSV with a header row), with the fields event_id (a UUID made \
                by the client), tenant, app, campaign (key), device (opaque, at most 128 characters), \
                kind (delivered|impression|click|dismiss), at (ISO 8601 with a zone), locale, app_version and, optionally, \
                os_version.

                Events are stored a batch per transaction; an event whose event_id is already stored counts as a \
                duplicate, so ingesting a file again (or after a crash) counts nothing twice. Lines that are malformed or \
                name an unknown tenant, app or campaign (or another tenant's campaign) are rejected with their line \
                number and reason — to --rejects FILE (NDJSON), else the first ones to standard error — and the rest \
                lands. Exit 0 when every line landed or was a duplicate, 65 when some were rejected.

                Example: herald events ingest events-2026-11-23.ndjson --rejects rejects.ndjson
                """)

        @Argument(help: "The input file, or - for standard input.")
        var file: String

        @Option(help: "ndjson or csv (default: csv for a .csv file, else ndjson).")
        var format: String?

        @Option(help: "Write every rejected line here (NDJSON: line, reason, record).")
        var rejects: String?

        @Option(help: "Events per transaction.")
        var batchSize = 50_000

        @Option(help: ArgumentHelp(
            "Connections storing batches at once (1 to 16).",
            discussion: "PostgreSQL stores each batch on one core; two or more keep more of its cores busy. Every count stays exact."))
        var jobs = 2

        @Flag(help: "No progress and no summary (errors and rejections still go to standard error).")
        var quiet = false

        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let format = try resolvedFormat()
                guard batchSize >= 1 else { throw InputError(message: "--batch-size must be at least 1", code: ExitStatus.usage) }
                guard (1...16).contains(jobs) else { throw InputError(message: "--jobs must be 1 to 16, not \(jobs)", code: ExitStatus.usage) }
                let console = Console.current
                let input = try EventInput(path: file, standardInput: console.inputDescriptor)
                // Opening the rejects file empties it: never when it is the input itself.
                if let rejects, let written = FileIdentity(path: rejects),
                    written == (file == "-" ? FileIdentity(descriptor: console.inputDescriptor) : FileIdentity(path: file))
                {
                    throw InputError(
                        message: "--rejects \(Excerpt.plain(rejects, limit: 200)) is the input file: writing rejections there would erase the events; give another file",
                        code: ExitStatus.usage)
                }
                let rejectsFile = try rejects.map { try RejectsFile(path: $0) }
                let database = try Environment.openDatabase(ownerOnly: "ingesting events")
                let showProgress = !quiet && !output.json && console.errorIsTerminal
                // The job may report from its own threads: the console is captured, not looked up there.
                let progress: ((EventIngestJob.Progress) -> Void)? = showProgress ? { Self.printProgress($0, to: console) } : nil
                var job = EventIngestJob(
                    database: database, format: format, batchSize: batchSize, jobs: jobs, rejects: rejectsFile,
                    progress: progress, phaseTimes: Environment.phaseTimes)
                // Ctrl-C stops after the batches being stored: everything before is kept, whole.
                if console.ownsProcessSignals {
                    InterruptRequest.install()
                    job.shouldStop = { InterruptRequest.isRequested }
                }
                defer { if console.ownsProcessSignals { InterruptRequest.uninstall() } }
                let summary = try job.run(input)
                if showProgress { console.writeError("\r\u{1B}[K") }
                if output.json {
                    try printJSON(summary)
                } else if !quiet {
                    print(summary.line)
                }
                if summary.rejected > 0, rejectsFile == nil { Self.printFirstRejections(summary.firstRejections) }
                if summary.interrupted {
                    console.writeError(
                        "herald: interrupted: the first \(summary.read) line(s) are stored or rejected, the rest is not read; "
                            + "run the same input again to finish (stored events count as duplicates, never twice)\n")
                    throw ExitCode(ExitStatus.interrupted)
                }
                if summary.rejected > 0 { throw ExitCode(ExitStatus.dataError) }
            }
        }

        private static func printProgress(_ progress: EventIngestJob.Progress, to console: Console) {
            console.writeError("\r" + ProgressLine.render(progress) + "\u{1B}[K")
        }

        /// Without --rejects: the first rejections on standard error.
        private static func printFirstRejections(_ rejections: [EventRejection]) {
            for rejection in rejections {
                Console.current.writeError("herald: line \(rejection.line): \(terminalSafe(rejection.reason))\n")
            }
            Console.current.writeError("herald: pass --rejects FILE to keep every rejected line with its reason\n")
        }

        private func resolvedFormat() throws -> EventFormat {
            if let format {
                guard let known = EventFormat(rawValue: format.lowercased()) else {
                    throw InputError(message: "--format must be ndjson or csv, not \(Excerpt.quoted(format))", code: ExitStatus.usage)
                }
                return known
            }
            return file.lowercased().hasSuffix(".csv") ? .csv : .ndjson
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Drop whole months of raw events that end on or before a day; rollups and reports keep their totals.",
            discussion: """
                Raw events are kept in one partition per month; pruning drops the months that end on or before --before \
                and keeps every rollup (campaign and daily totals, unique devices, per-device summaries). Later ingests \
                refuse events older than the first month kept. device_history only shows the months still kept.

                Example: herald events prune --before 2026-06-01
                """)

        @Option(help: "A day, YYYY-MM-DD (UTC).")
        var before: String

        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                guard before.count == 10, EventTime(before + "T00:00:00Z") != nil else {
                    throw InputError(message: "--before must be a day like 2026-06-01, not \(Excerpt.quoted(before))", code: ExitStatus.usage)
                }
                let (dropped, horizon) = try EventPruneJob(Environment.openDatabase(ownerOnly: "pruning events")).prune(before: before)
                if output.json {
                    try printJSON(PruneJSON(dropped: dropped, prunedBefore: horizon))
                } else if dropped.isEmpty {
                    print("nothing to drop: no month of raw events ends on or before \(before)")
                } else {
                    print("dropped \(dropped.count) month(s) of raw events: \(dropped.joined(separator: ", "))")
                    print("raw events before \(horizon ?? before) are gone; rollups and reports keep their totals")
                }
            }
        }
    }
}

private struct PruneJSON: Encodable {
    let dropped: [String]
    let prunedBefore: String?
}
