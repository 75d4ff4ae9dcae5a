import Foundation
import HeraldCore
import HeraldStore

/// One `herald events ingest`: reads the input in chunks (constant memory whatever its
/// size), parses, and hands the store a batch at a time.
final class EventIngestJob {
    let database: HeraldDatabase
    let format: EventFormat
    let batchSize: Int
    /// Connections storing batches at once.
    let jobs: Int
    let rejects: RejectsFile?
    let showProgress: Bool
    private var firstRejections: [EventRejection] = []

    init(database: HeraldDatabase, format: EventFormat, batchSize: Int, jobs: Int, rejects: RejectsFile?, showProgress: Bool) {
        self.database = database
        self.format = format
        self.batchSize = batchSize
        self.jobs = jobs
        self.rejects = rejects
        self.showProgress = showProgress
    }

    struct Summary: Encodable {
        var read = 0
        var inserted = 0
        var duplicate = 0
        var rejected = 0
        var seconds = 0.0

        var line: String {
            let rate = seconds > 0 ? Double(read) / seconds : 0
            return "read \(read) · inserted \(inserted) · duplicate \(duplicate) · rejected \(rejected)"
                + String(format: "  (%.1f s, %.0f lines/s)", seconds, rate)
        }
    }

    func run(_ input: EventInput) throws -> Summary {
        let start = DispatchTime.now().uptimeNanoseconds
        var databases = [database]
        for _ in 1..<jobs { databases.append(try database.connectAgain()) }
        let ingest = try ParallelEventIngest(databases: databases)
        // Reading and parsing run on their own thread, ahead of the database.
        let batches = ParsedBatches(input: input, format: format, batchSize: batchSize)
        var summary = Summary()

        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        do {
            try ingest.run(next: { try batches.next() }) { counts, rejections in
                summary.read += counts.read
                summary.inserted += counts.inserted
                summary.duplicate += counts.duplicate
                summary.rejected += counts.rejected
                try record(rejections)
                if showProgress {
                    FileHandle.standardError.write(
                        Data(String(format: "\r%d lines · %d inserted · %.0f lines/s ", summary.read, summary.inserted, Double(summary.read) / max(elapsed(), 0.001)).utf8))
                }
            }
        } catch let error as InputError {
            batches.stop()
            throw error
        } catch {
            batches.stop()
            throw InputError(
                message: "\(error)\n\(summary.inserted) event(s) were stored before this failure; run the same input again "
                    + "to finish (stored events count as duplicates, never twice)",
                code: ExitStatus.software)
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        summary.seconds = elapsed()
        if ProcessInfo.processInfo.environment["HERALD_TIMING"] == "1" {
            FileHandle.standardError.write(Data(String(format: "timing: read and parse (beside the database) %.3f s\n", batches.parseSeconds).utf8))
            for (step, seconds) in ingest.stepSeconds {
                FileHandle.standardError.write(Data(String(format: "timing: %@ %.3f s\n", step, seconds).utf8))
            }
        }
        return summary
    }

    private func record(_ rejections: [EventRejection]) throws {
        if let rejects {
            try rejects.write(rejections)
        } else if firstRejections.count < 10 {
            firstRejections += rejections.prefix(10 - firstRejections.count)
        }
    }

    /// Without --rejects: the first rejections on standard error.
    func printFirstRejections() {
        for rejection in firstRejections {
            FileHandle.standardError.write(Data("herald: line \(rejection.line): \(rejection.reason)\n".utf8))
        }
        FileHandle.standardError.write(Data("herald: pass --rejects FILE to keep every rejected line with its reason\n".utf8))
    }
}

/// The input, a chunk at a time (1 MiB): a file or standard input. Used by one thread at a time.
final class EventInput: @unchecked Sendable {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)

    init(path: String) throws {
        if path == "-" {
            descriptor = Console.current.inputDescriptor
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw InputError(message: "cannot read \(path): \(String(cString: strerror(errno)))", code: ExitStatus.usage)
            }
            ownsDescriptor = true
        }
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    func next() throws -> ArraySlice<UInt8>? {
        let count = buffer.withUnsafeMutableBytes { raw in
            raw.baseAddress.map { read(descriptor, $0, raw.count) } ?? -1
        }
        guard count >= 0 else { throw InputError(message: "cannot read the input: \(String(cString: strerror(errno)))", code: ExitStatus.software) }
        return count == 0 ? nil : buffer[0..<count]
    }
}

/// `--rejects FILE`: one JSON object per rejected line (line, reason, record).
final class RejectsFile {
    private let handle: FileHandle

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw InputError(message: "cannot write the rejects file \(path)", code: ExitStatus.cannotCreate)
        }
        self.handle = handle
    }

    func write(_ rejections: [EventRejection]) throws {
        guard !rejections.isEmpty else { return }
        var text = ""
        for rejection in rejections {
            text += "{\"line\":\(rejection.line),\"reason\":\(JSONText.quoted(rejection.reason)),\"record\":\(JSONText.quoted(rejection.text))}\n"
        }
        try handle.write(contentsOf: Data(text.utf8))
    }
}

/// The input read and parsed into batches on a thread of its own, at most two batches ahead
/// of the consumer: memory stays bounded whatever the input's size.
final class ParsedBatches: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [[EventRecord]] = []
    private var finished = false
    private var failure: (any Error)?
    private var stopped = false
    private var parseNanoseconds: UInt64 = 0

    init(input: EventInput, format: EventFormat, batchSize: Int) {
        Thread.detachNewThread { [self] in
            var parser = EventStreamParser(format: format)
            var batch: [EventRecord] = []
            batch.reserveCapacity(batchSize)
            do {
                while let chunk = try input.next() {
                    let started = DispatchTime.now().uptimeNanoseconds
                    let records = parser.feed(chunk)
                    if let problem = parser.fatalProblem { throw InputError(message: problem, code: ExitStatus.dataError) }
                    addTime(since: started)
                    for record in records {
                        batch.append(record)
                        if batch.count >= batchSize {
                            guard hand(batch) else { return }
                            batch.removeAll(keepingCapacity: true)
                        }
                    }
                }
                batch += parser.finish()
                if let problem = parser.fatalProblem { throw InputError(message: problem, code: ExitStatus.dataError) }
                if !batch.isEmpty { _ = hand(batch) }
                end(nil)
            } catch {
                end(error)
            }
        }
    }

    /// The next batch; nil at the end of the input.
    func next() throws -> [EventRecord]? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !finished { condition.wait() }
        if !ready.isEmpty {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// The consumer gave up: the reader stops at its next batch.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    var parseSeconds: Double {
        condition.lock()
        defer { condition.unlock() }
        return Double(parseNanoseconds) / 1e9
    }

    private func addTime(since started: UInt64) {
        condition.lock()
        parseNanoseconds += DispatchTime.now().uptimeNanoseconds - started
        condition.unlock()
    }

    /// Waits for room, then queues the batch; false when the consumer stopped.
    private func hand(_ batch: [EventRecord]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= 2 && !stopped { condition.wait() }
        guard !stopped else { return false }
        ready.append(batch)
        condition.broadcast()
        return true
    }

    private func end(_ error: (any Error)?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }
}
