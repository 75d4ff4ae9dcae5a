import Foundation
import HeraldCore
import HeraldStore
import Synchronization

/// One ingest of delivery events: reads the input in chunks (constant memory whatever its
/// size) and parses it on a thread of its own, and stores a batch per transaction over
/// `jobs` connections (`database` and new ones like it).
public struct EventIngestJob {
    public let database: HeraldDatabase
    public let format: EventFormat
    /// Events per transaction (at least 1).
    public let batchSize: Int
    /// Connections storing batches at once (at least 1).
    public let jobs: Int
    /// Where every rejected line goes; without one, the summary keeps the first few.
    public let rejects: RejectsFile?
    /// Told the counts so far after each stored batch, on the calling thread.
    public var progress: ((Progress) -> Void)?
    /// Told, at the end, how long reading and parsing took and the store's steps.
    public var phaseTimes: PhaseTimes?
    /// Asked before each batch is handed to the database: true stops the ingest there, after
    /// the batches already handed are stored (`Summary.interrupted`). Ctrl-C, for people.
    public var shouldStop: (@Sendable () -> Bool)?

    /// How many rejections the summary keeps when there is no rejects file.
    public static let firstRejectionsKept = 10

    public init(
        database: HeraldDatabase, format: EventFormat, batchSize: Int, jobs: Int, rejects: RejectsFile?,
        progress: ((Progress) -> Void)? = nil, phaseTimes: PhaseTimes? = nil
    ) {
        self.database = database
        self.format = format
        self.batchSize = max(batchSize, 1)
        self.jobs = max(jobs, 1)
        self.rejects = rejects
        self.progress = progress
        self.phaseTimes = phaseTimes
    }

    /// The counts so far, and the time since the start.
    public struct Progress: Sendable {
        public var read: Int
        public var inserted: Int
        public var seconds: Double
        /// Bytes of the input read, and its size when known (a file): how far along it is.
        public var bytesRead: Int
        public var totalBytes: Int?

        public init(read: Int, inserted: Int, seconds: Double, bytesRead: Int, totalBytes: Int?) {
            self.read = read
            self.inserted = inserted
            self.seconds = seconds
            self.bytesRead = bytesRead
            self.totalBytes = totalBytes
        }
    }

    /// What an ingest did. Encodes as the counts and seconds (`herald events ingest --json`).
    public struct Summary: Encodable, Sendable {
        public var read = 0
        public var inserted = 0
        public var duplicate = 0
        public var rejected = 0
        public var seconds = 0.0
        /// Stopped by `shouldStop` before the input's end: lines 1…`read` are stored (or
        /// rejected); the same input again finishes the rest, counting nothing twice.
        public var interrupted = false
        /// Without a rejects file: the first rejections (at most `firstRejectionsKept`), in input order.
        public var firstRejections: [EventRejection] = []

        private enum CodingKeys: String, CodingKey {
            case read, inserted, duplicate, rejected, seconds, interrupted
        }
    }

    /// Reads `input` to its end and stores it. Failures: `EventIngestError` (the input, the
    /// rejects file, or `.interrupted` with what was stored before a database failure).
    public func run(_ input: EventInput) throws -> Summary {
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        var databases = [database]
        for _ in 1..<jobs { databases.append(try database.connectAgain()) }
        let ingest = try ParallelEventIngest(databases: databases)
        // Reading and parsing run on their own thread, ahead of the database.
        let batches = ParsedBatches(input: input, format: format, batchSize: batchSize)
        var summary = Summary()
        let stoppedEarly = Atomic<Bool>(false)
        let shouldStop = shouldStop
        do {
            try ingest.run(next: {
                if shouldStop?() == true {
                    stoppedEarly.store(true, ordering: .relaxed)
                    return nil
                }
                return try batches.next()
            }) { counts, rejections in
                summary.read += counts.read
                summary.inserted += counts.inserted
                summary.duplicate += counts.duplicate
                summary.rejected += counts.rejected
                if let rejects {
                    try rejects.write(rejections)
                } else if summary.firstRejections.count < Self.firstRejectionsKept {
                    summary.firstRejections += rejections.prefix(Self.firstRejectionsKept - summary.firstRejections.count)
                }
                progress?(
                    Progress(
                        read: summary.read, inserted: summary.inserted, seconds: elapsed(), bytesRead: input.bytesRead,
                        totalBytes: input.size))
            }
        } catch let error as EventIngestError {
            batches.stop()
            throw error
        } catch {
            batches.stop()
            throw EventIngestError.interrupted(stored: summary.inserted, reason: error)
        }
        summary.seconds = elapsed()
        if stoppedEarly.load(ordering: .relaxed) {
            summary.interrupted = true
            batches.stop()
        }
        if let phaseTimes {
            phaseTimes("read and parse (beside the database)", batches.parseSeconds)
            for (step, seconds) in ingest.stepSeconds { phaseTimes(step, seconds) }
        }
        return summary
    }
}
