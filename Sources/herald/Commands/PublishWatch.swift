import Foundation
import HeraldCollector
import HeraldCore
import HeraldJobs
import HeraldText
import Logging

/// `herald publish --watch`: runs `PublishWatcher` until SIGTERM or SIGINT (then finishes the
/// run in progress and exits 0), logging one line per run that changed something and one per
/// problem, to standard error (the journal, under systemd). It exits non-zero only when the
/// watcher gives up: a schema this binary does not know, a folder it must not write.
enum PublishWatch {
    /// Where the signal handler writes (set once, before the handler is installed).
    nonisolated(unsafe) private static var stopDescriptor: Int32 = -1

    static func run(out: URL, tenant: Slug?, siteBaseURL: HTTPURL?, adopt: Bool, then: String?) throws {
        LoggingBootstrap.once()
        let logger = Logger(label: "herald.publish")
        let stop = WatchStop()
        // The compilers' warnings, each logged once (an incremental run repeats those of the apps it compiles).
        var warned = Set<String>()
        installSignalHandlers(stop)
        defer { restoreSignalHandlers() }
        let watcher = PublishWatcher(
            open: { try Environment.openDatabase() }, out: out, tenant: tenant, siteBaseURL: siteBaseURL, adopt: adopt,
            then: then.map { ThenCommand(command: $0, out: out) }, report: { log($0, to: logger, warned: &warned) })
        logger.info("watching \(terminalSafe(out.path))\(tenant.map { " (tenant \($0))" } ?? ""): publishing on every committed change and schedule boundary")
        try watcher.run(until: stop)
        logger.info("stopped")
    }

    /// SIGTERM and SIGINT write a byte into the stop pipe (async-signal-safe). A handler, not
    /// SIG_IGN: `--then`'s command starts with the default dispositions again.
    private static func installSignalHandlers(_ stop: WatchStop) {
        stopDescriptor = stop.writeDescriptor
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(PublishWatch.stopDescriptor, &byte, 1)
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
        // A parent may have started us with them blocked (a mask is inherited).
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGTERM)
        sigaddset(&mask, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    private static func restoreSignalHandlers() {
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
    }

    private static func log(_ event: PublishWatcher.Event, to logger: Logger, warned: inout Set<String>) {
        for (level, line) in WatchText.lines(event, warned: &warned) {
            switch level {
            case .info: logger.info("\(line)")
            case .warning: logger.warning("\(line)")
            case .error: logger.error("\(line)")
            }
        }
    }
}
