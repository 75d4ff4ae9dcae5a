import HeraldCore
import Testing

@testable import HeraldPublish

/// A large manifest is decoded in runs of whole app groups, on every core: whatever the
/// number of runs, the same manifest, the same lines kept for writing it again, and the same
/// refusal (its file's first bad line) as one pass over the lines.
@Suite struct ManifestRunsTests {
    /// 60 apps of 3 locales and 4 files each, in groups, with an owner line.
    static func text(apps: Int = 60) -> String {
        var text = "herald-manifest 2 complete \(SHA256.hex(Array("archive".utf8)))\n% owner 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0 site\n"
        // In the order Herald writes them: apps, then each app's paths, sorted.
        for app in (0..<apps).map({ "acme/app-\($0)" }).sorted() {
            text += "@ - \(app)\n"
            for locale in ["de", "en", "fr"] {
                for file in ["control.json", "notifications.plist", "stories/sale.json", "stories/tour.json"] {
                    text += "\(SHA256.hex(Array("\(app) \(locale) \(file)".utf8))) \(app)/\(locale)/\(file)\n"
                }
            }
        }
        return text
    }

    @Test(arguments: [1, 2, 3, 7, 60, 200])
    func everyNumberOfRunsDecodesTheSameManifest(runs: Int) throws {
        let bytes = Array(Self.text().utf8)
        var one = try SiteManifest.decode(bytes, runs: 1).get()
        var many = try SiteManifest.decode(bytes, runs: runs).get()
        #expect(many == one)
        #expect(many.apps.count == 60 && many.fileCount == 720 && many.owner?.purpose == .site && many.complete)
        // Every app's lines were kept as read: written again, they are the file as it was.
        let writtenAgain = (many.serializing() == bytes, one.serializing() == bytes)
        #expect(writtenAgain == (true, true))
    }

    @Test(arguments: [1, 2, 3, 7, 60])
    func theFirstBadLineIsTheOneRefused(runs: Int) throws {
        let original = Self.text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A file line a quarter of the way in, and one three quarters in (never a group's line).
        let early = try #require((original.count / 4..<original.count).first { !original[$0].hasPrefix("@") })
        let late = try #require((original.count * 3 / 4..<original.count).first { !original[$0].hasPrefix("@") })
        let digest = String(repeating: "b", count: 64)
        var lines = original
        lines[early] = digest + " acme/../etc/passwd"  // a path Herald could not have written
        lines[late] = digest + " acme/elsewhere/de/control.json"  // a path outside its app's group
        func refusal(_ lines: [String]) -> String? {
            guard case .failure(let refusal) = SiteManifest.decode(Array(lines.joined(separator: "\n").utf8), runs: runs) else { return nil }
            return refusal.description
        }
        let both = try #require(refusal(lines))
        #expect(both.hasPrefix("line \(early + 1) names a path Herald could not have written"), "\(both)")
        // Only the late one: that is the line refused.
        lines[early] = original[early]
        let later = try #require(refusal(lines))
        #expect(later.hasPrefix("line \(late + 1) names \"acme/elsewhere/de/control.json\" outside its app's group"), "\(later)")
    }

    @Test(arguments: [1, 2, 3, 7])
    func aFolderGroupedTwiceKeepsItsLastGroup(runs: Int) throws {
        let twice = Self.text() + "@ - acme/app-0\n- acme/app-0/en/control.json\n"
        let manifest = try SiteManifest.decode(Array(twice.utf8), runs: runs).get()
        #expect(manifest.apps["acme/app-0"]?.files == ["acme/app-0/en/control.json": ""])
        #expect(manifest.apps.count == 60)
    }
}
