import Foundation
import HeraldCore
import HeraldStore

/// One `herald events ingest`: reads the input in chunks (constant memory whatever its
/// size), parses, and hands the store a batch at a time.
final class EventIngestJob {
    let database: HeraldDatabase
    let format: EventFormat
    let batchSize: Int
    let rejects: RejectsFile?
    let showProgress: Bool
    private var firstRejections: [EventRejection] = []

    init(database: HeraldDatabase, format: EventFormat, batchSize: Int, rejects: RejectsFile?, showProgress: Bool) {
        self.database = database
        self.format = format
        self.batchSize = batchSize
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
        let ingestor = try EventIngestor(database: database)
        var parser = EventStreamParser(format: format)
        var summary = Summary()
        var batch: [EventRecord] = []
        batch.reserveCapacity(batchSize)

        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        func store() throws {
            guard !batch.isEmpty else { return }
            do {
                let (counts, rejections) = try ingestor.ingest(batch)
                summary.read += counts.read
                summary.inserted += counts.inserted
                summary.duplicate += counts.duplicate
                summary.rejected += counts.rejected
                try record(rejections)
            } catch {
                throw InputError(
                    message: "\(error)\n\(summary.inserted) event(s) were stored before this failure; run the same input again "
                        + "to finish (stored events count as duplicates, never twice)",
                    code: ExitStatus.software)
            }
            batch.removeAll(keepingCapacity: true)
            if showProgress {
                FileHandle.standardError.write(
                    Data(String(format: "\r%d lines · %d inserted · %.0f lines/s ", summary.read, summary.inserted, Double(summary.read) / max(elapsed(), 0.001)).utf8))
            }
        }

        while let chunk = try input.next() {
            for record in parser.feed(chunk) {
                batch.append(record)
                if batch.count >= batchSize { try store() }
            }
            if let problem = parser.fatalProblem { throw InputError(message: problem, code: ExitStatus.dataError) }
        }
        batch += parser.finish()
        if let problem = parser.fatalProblem { throw InputError(message: problem, code: ExitStatus.dataError) }
        try store()
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        summary.seconds = elapsed()
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

/// The input, a chunk at a time (1 MiB): a file or standard input.
final class EventInput {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)

    init(path: String) throws {
        if path == "-" {
            descriptor = STDIN_FILENO
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
