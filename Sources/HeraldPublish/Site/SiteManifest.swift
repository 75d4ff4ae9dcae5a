/// What Herald has published under an output folder: path → SHA-256 of its bytes. Kept in
/// the folder itself, so Herald removes only files it wrote and never anything else.
///
/// A line format, quick to read and write for tens of thousands of files:
///   herald-manifest 1 complete [ARCHIVE]  ("incomplete" in old versions; ARCHIVE: the digest
///                                        the run history keeps this manifest under)
///   <sha256 hex> <path>                  ("-" for a path whose content is not known yet)
public struct SiteManifest: Equatable, Sendable {
    public static let fileName = ".herald-manifest"
    public var files: [String: String]
    /// False while a run is writing: a manifest left that way means the run died part-way.
    public var complete: Bool
    /// The digest of this manifest in the run history (`ManifestArchive`), when known.
    public var archiveDigest: String?

    public init(files: [String: String] = [:], complete: Bool = true, archiveDigest: String? = nil) {
        self.files = files
        self.complete = complete
        self.archiveDigest = archiveDigest
    }

    public func serialized() -> [UInt8] {
        var out = "herald-manifest 1 \(complete ? "complete" : "incomplete")\(archiveDigest.map { " " + $0 } ?? "")\n"
        for (path, digest) in files.sorted(by: { $0.key < $1.key }) {
            out += (digest.isEmpty ? "-" : digest) + " " + path + "\n"
        }
        return Array(out.utf8)
    }

    public static func parse(_ bytes: [UInt8]) -> SiteManifest? {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let header = lines.first else { return nil }
        let words = String(decoding: header, as: UTF8.self).split(separator: " ")
        guard words.count >= 3, words.count <= 4, words[0] == "herald-manifest", words[1] == "1",
            words[2] == "complete" || words[2] == "incomplete"
        else { return nil }
        let complete = words[2] == "complete"
        let archiveDigest = words.count == 4 ? String(words[3]) : nil
        var files: [String: String] = [:]
        files.reserveCapacity(lines.count)
        for line in lines.dropFirst() {
            guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return nil }
            let digest = String(decoding: line[line.startIndex..<space], as: UTF8.self)
            files[String(decoding: line[(space + 1)...], as: UTF8.self)] = digest == "-" ? "" : digest
        }
        return SiteManifest(files: files, complete: complete, archiveDigest: archiveDigest)
    }
}
