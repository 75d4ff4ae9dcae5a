import Foundation
import HeraldCore
import HeraldStore

/// Where every rejected line goes: one JSON object per line (line, reason, record). A run
/// that rejects nothing leaves no file behind (an empty one would only be noise in a spool).
public final class RejectsFile {
    public let path: String
    private let handle: FileHandle
    private var written = 0

    /// Creates (or empties) the file at `path`: a rejects file that cannot be written is
    /// refused before anything is stored.
    public init(path: String) throws(EventIngestError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw .rejectsUnwritable(path: path)
        }
        self.path = path
        self.handle = handle
    }

    deinit {
        try? handle.close()
        if written == 0 { unlink(path) }
    }

    func write(_ rejections: [EventRejection]) throws {
        guard !rejections.isEmpty else { return }
        var text = ""
        for rejection in rejections {
            text += "{\"line\":\(rejection.line),\"reason\":\(JSONText.quoted(rejection.reason)),\"record\":\(JSONText.quoted(rejection.text))}\n"
        }
        try handle.write(contentsOf: Data(text.utf8))
        written += rejections.count
    }
}
