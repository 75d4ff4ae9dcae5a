import HeraldCore
import HeraldPublish
import Testing

@testable import HeraldSite

/// The writer's decisions, made without a folder: what was found → what to write, where,
/// what to remove, what the manifest becomes.
@Suite struct SitePlanTests {
    func control(_ app: String, _ locale: String, _ text: String = "{}\n") throws -> SiteFile {
        SiteFile(path: .controlFile(tenant: try Slug("acme"), app: try Slug(app), locale: try LocaleTag(locale)), bytes: Array(text.utf8))
    }

    /// Found in place (its folder exists), the same bytes or not.
    func inPlace(_ file: SiteFile, same: Bool) -> SitePlan.Found {
        SitePlan.Found(location: .init(newFolder: nil, missingTenant: nil), same: same)
    }

    func inNewFolder(_ file: SiteFile, _ folder: String, missingTenant: String? = nil) -> SitePlan.Found {
        SitePlan.Found(
            location: .init(newFolder: folder, missingTenant: missingTenant), same: false)
    }

    @Test func nothingDifferentMeansNothingTouched() throws {
        let en = try control("weather", "en")
        let previous = SiteManifest(files: [en.path.description: en.digest])
        let plan = SitePlan(files: [en], found: [inPlace(en, same: true)], previous: previous, unfinished: nil, scope: nil)
        #expect(plan.isEmpty)
        #expect(plan.unchanged == 1 && plan.written.isEmpty && plan.archive == nil)
        #expect(plan.manifest.files == previous.files)
    }

    @Test func changedFilesGoInPlaceOrInTheirNewFolderAndStaleOnesGo() throws {
        let en = try control("weather", "en", "{\"a\": {}}\n")
        let de = try control("weather", "de")
        let radio = try control("radio", "en")
        let news = SiteFile(
            path: .controlFile(tenant: try Slug("globex"), app: try Slug("news"), locale: try LocaleTag("en")), bytes: Array("{}\n".utf8))
        let previous = SiteManifest(files: [
            en.path.description: "old", "acme/weather/fr/control.json": "gone", "acme/old/en/control.json": "gone too",
        ])
        let plan = SitePlan(
            files: [en, de, radio, news],
            found: [
                inPlace(en, same: false), inNewFolder(de, "/site/acme/weather/de"), inNewFolder(radio, "/site/acme/radio"),
                inNewFolder(news, "/site/globex/news", missingTenant: "/site/globex"),
            ],
            previous: previous, unfinished: nil, scope: nil)
        #expect(!plan.isEmpty && !plan.sweep)
        #expect(plan.written == ["acme/weather/en/control.json", "acme/weather/de/control.json", "acme/radio/en/control.json", "globex/news/en/control.json"])
        #expect(plan.replace.map(\.file.path.description) == ["acme/weather/en/control.json"])
        #expect(plan.newFolders.map(\.folder) == ["/site/acme/radio", "/site/acme/weather/de", "/site/globex/news"])
        #expect(plan.tenantFolders == ["/site/globex"])
        #expect(plan.remove == ["acme/old/en/control.json", "acme/weather/fr/control.json"])
        // Announced: only the paths the manifest does not know (a dead run's new files are then cleaned up).
        #expect(String(decoding: plan.marker, as: UTF8.self) == "acme/weather/de/control.json\nacme/radio/en/control.json\nglobex/news/en/control.json\n")
        #expect(plan.manifest.files == [en, de, radio, news].reduce(into: [:]) { $0[$1.path.description] = $1.digest })
        #expect(plan.manifest.complete && plan.manifest.archiveDigest == plan.archive?.indexDigest)
    }

    @Test func aScopeKeepsTheRestAndItsShards() throws {
        let weather = try control("weather", "en", "{\"a\": {}}\n")
        let packed = ManifestArchive.pack(SiteManifest(files: ["acme/weather/en/control.json": "1", "acme/radio/en/control.json": "2"]))
        let plan = SitePlan(
            files: [weather], found: [inPlace(weather, same: false)], previous: packed.manifest, unfinished: nil,
            scope: [["acme", "weather"]])
        #expect(plan.remove.isEmpty)
        #expect(plan.manifest.files.keys.sorted() == ["acme/radio/en/control.json", "acme/weather/en/control.json"])
        #expect(plan.manifest.apps["acme/radio"]?.shardDigest == packed.manifest.apps["acme/radio"]?.shardDigest)
        #expect(plan.archive?.shards.count == 1)  // only weather's shard is new
    }

    /// A dead run's marker: its temp files are swept, and a path it announced that is no
    /// longer published is removed, though the manifest never listed it.
    @Test func aDeadRunsMarkerMeansSweepAndForgetNothing() throws {
        let en = try control("weather", "en")
        let previous = SiteManifest(files: [en.path.description: en.digest])
        let plan = SitePlan(
            files: [en], found: [inPlace(en, same: true)], previous: previous,
            unfinished: Array("acme/weather/en/notifications.plist\n".utf8), scope: nil)
        #expect(!plan.isEmpty && plan.sweep)
        #expect(plan.written.isEmpty && plan.unchanged == 1)
        #expect(plan.remove == ["acme/weather/en/notifications.plist"])
        // An incomplete manifest alone (a run died after writing it) is enough to sweep.
        var incomplete = previous
        incomplete.complete = false
        let after = SitePlan(files: [en], found: [inPlace(en, same: true)], previous: incomplete, unfinished: nil, scope: nil)
        #expect(!after.isEmpty && after.sweep && after.remove.isEmpty)
    }

    /// An app whose files all match the previous run's, as many as it had, is the same app and
    /// keeps its entries (and shard) as they are; but only files in path order prove they are
    /// as many as before: a path given twice is one file, and the one it stands in for goes.
    @Test func anAppIsTheSameOnlyWithTheSameFiles() throws {
        let de = try control("weather", "de")
        let en = try control("weather", "en")
        let fr = try control("weather", "fr")
        var previous = ManifestArchive.pack(SiteManifest(files: [de, en, fr].reduce(into: [:]) { $0[$1.path.description] = $1.digest })).manifest
        previous.archiveDigest = "kept"
        let shard = try #require(previous.apps["acme/weather"]?.shardDigest)
        let same = SitePlan(files: [de, en, fr], found: [de, en, fr].map { inPlace($0, same: true) }, previous: previous, unfinished: nil, scope: nil)
        #expect(same.isEmpty && same.unchanged == 3)
        #expect(same.manifest.apps["acme/weather"] == previous.apps["acme/weather"])
        // Three files, each as before, but one of them twice: fr is no longer published.
        let repeated = [de, en, de]
        let plan = SitePlan(files: repeated, found: repeated.map { inPlace($0, same: true) }, previous: previous, unfinished: nil, scope: nil)
        #expect(!plan.isEmpty)
        #expect(plan.remove == [fr.path.description])
        #expect(plan.manifest.files.keys.sorted() == [de, en].map(\.path.description))
        #expect(plan.manifest.apps["acme/weather"]?.shardDigest != shard)
    }
}
