/// What a board was made from, kept beside it (`board/assets/inputs.txt`) as publish keeps its
/// manifest: each page's inputs as one digest, so that the next board renders only the pages
/// whose inputs changed, and each campaign's content and state as one digest, so that the
/// next board can say which campaigns changed since this one.
public struct BoardMemory: Equatable, Sendable {
    public static let path = "board/assets/inputs.txt"
    static let header = "herald board inputs 1"

    /// What rendered the pages (a page made by another Herald is made again).
    public var renderer: String
    /// The moment this board showed, in words ("2026-06-01 12:34 UTC").
    public var made: String
    /// The digest of everything the whole board shows (`BoardPlan.inputDigest`): when the next
    /// board's is the same, and its files are all there, nothing is made again.
    public var input = ""
    /// Page path → the digest of everything the page shows.
    public var pages: [String: String]
    /// `tenant/app/campaign` → the digest of its content, state and approval.
    public var campaigns: [String: String]

    public init(renderer: String, made: String, pages: [String: String] = [:], campaigns: [String: String] = [:]) {
        self.renderer = renderer
        self.made = made
        self.pages = pages
        self.campaigns = campaigns
    }

    /// Lines of text: a header, `renderer …`, `made …`, `input …`, then `campaign DIGEST KEY` and
    /// `page DIGEST PATH`, sorted (slugs and board paths hold no spaces).
    public func serialized() -> [UInt8] {
        var text = "\(Self.header)\nrenderer \(renderer)\nmade \(made)\ninput \(input)\n"
        for (key, digest) in campaigns.sorted(by: { $0.key < $1.key }) { text += "campaign \(digest) \(key)\n" }
        for (path, digest) in pages.sorted(by: { $0.key < $1.key }) { text += "page \(digest) \(path)\n" }
        return Array(text.utf8)
    }

    /// The memory in `bytes`, or nil when they are not one (a board then renders every page).
    public static func parse(_ bytes: [UInt8]) -> BoardMemory? {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(header), lines.count >= 4,
            lines[1].hasPrefix("renderer "), lines[2].hasPrefix("made "), lines[3].hasPrefix("input ")
        else { return nil }
        var memory = BoardMemory(renderer: String(lines[1].dropFirst(9)), made: String(lines[2].dropFirst(5)))
        memory.input = String(lines[3].dropFirst(6))
        for line in lines.dropFirst(4) where !line.isEmpty {
            let parts = line.split(separator: " ")
            guard parts.count == 3 else { return nil }
            switch parts[0] {
            case "campaign": memory.campaigns[String(parts[2])] = String(parts[1])
            case "page": memory.pages[String(parts[2])] = String(parts[1])
            default: return nil
            }
        }
        return memory
    }
}

/// The campaigns that changed since the previous board: added, changed (content, state or
/// approval) and removed, each as `tenant/app/campaign`.
public struct BoardChanges: Equatable, Sendable {
    /// When the previous board was made (nil: there was none, or it kept no memory).
    public var since: String?
    public var added: [String] = []
    public var changed: [String] = []
    public var removed: [String] = []

    public var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty }

    static func between(_ previous: BoardMemory?, _ current: [String: String]) -> BoardChanges {
        guard let previous else { return BoardChanges(since: nil) }
        var changes = BoardChanges(since: previous.made)
        for (key, digest) in current {
            if let before = previous.campaigns[key] {
                if before != digest { changes.changed.append(key) }
            } else {
                changes.added.append(key)
            }
        }
        changes.removed = previous.campaigns.keys.filter { current[$0] == nil }
        changes.added.sort()
        changes.changed.sort()
        changes.removed.sort()
        return changes
    }
}
