import Foundation
import HeraldCore
import HeraldStore

/// Where every rejected line goes: one JSON object per line (line, reason, record).
public final class RejectsFile {
    private let handle: FileHandle

    /// Creates (or empties) the file at `path`.
    public init(path: String) throws(EventIngestError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw .rejectsUnwritable(path: path)
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
