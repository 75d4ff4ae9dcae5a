import Foundation
import HeraldCore
import HeraldPublish
import HeraldTestSupport
import Testing

@testable import HeraldSite

#if canImport(Glibc)
    import Glibc
#endif

/// Issue #11: the output folder is not a weapon. A forged manifest or marker, a planted
/// symlink, a write that fails half-way: none makes publish touch anything outside the
/// folder, delete through a symlink, or leave a file naming one that is not there.
@Suite struct SiteSafetyTests {
    let tenant = "acme"

    func control(_ locale: String = "en", _ text: String = "{}\n") throws -> SiteFile {
        SiteFile(path: .controlFile(tenant: try Slug("acme"), app: try Slug("weather"), locale: try LocaleTag(locale)), bytes: Array(text.utf8))
    }

    func story(_ campaign: String, _ locale: String = "en") throws -> SiteFile {
        SiteFile(
            path: .storyFile(tenant: try Slug("acme"), app: try Slug("weather"), locale: try LocaleTag(locale), campaign: try Slug(campaign)),
            bytes: Array("{\"pw_stories\": []}\n".utf8))
    }

    func view(_ campaign: String, _ id: String, _ html: String) throws -> SiteFile {
        SiteFile(
            path: .viewFile(tenant: try Slug("acme"), app: try Slug("weather"), locale: try LocaleTag("en"), campaign: try Slug(campaign), view: try Slug(id)),
            bytes: Array(html.utf8))
    }

    /// `site` and, beside it, `victim/precious.txt`: what a forged path or a symlink aims at.
    func withSiteAndVictim(_ body: (_ site: URL, _ victim: URL) throws -> Void) throws {
        try withTemporaryDirectory { root in
            let site = root.appendingPathComponent("site")
            let victim = root.appendingPathComponent("victim")
            try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
            try Data("precious".utf8).write(to: victim.appendingPathComponent("precious.txt"))
            try Data("{}".utf8).write(to: victim.appendingPathComponent("tour.json"))
            try body(site, victim)
        }
    }

    func victimIsWhole(_ victim: URL) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: victim.path).sorted()) == ["precious.txt", "tour.json"]
    }

    // MARK: 1. Forged manifests and markers

    @Test func aForgedManifestLineIsRefusedAndDeletesNothing() throws {
        try withSiteAndVictim { site, victim in
            let writer = SiteWriter(root: site)
            try writer.sync([try control()])
            let manifest = site.appendingPathComponent(SiteManifest.fileName)
            var text = try String(contentsOf: manifest, encoding: .utf8)
            text += "- acme/weather/../../../victim/precious.txt\n"
            try Data(text.utf8).write(to: manifest)
            #expect(writer.intactState() == nil)
            let refusal = #expect(throws: SiteWriter.WriteError.self) { try writer.sync([try control("en", "{\"a\": {}}\n")]) }
            #expect(refusal?.description.contains("refusing \(manifest.path): line 4 names a path Herald could not have written") == true, "\(String(describing: refusal))")
            #expect(victimIsWhole(victim))
            // Nothing was written either: the run stopped before touching the folder.
            #expect(try String(contentsOf: site.appendingPathComponent("acme/weather/en/control.json"), encoding: .utf8) == "{}\n")
        }
    }

    @Test(arguments: [
        "- acme/weather/../../../victim/precious.txt", "- /tmp/x/y", "- acme//weather/en/control.json", "- acme/weather/en/control.json\0/x",
        "- acme/weather/" + String(repeating: "a", count: 300), "- acme/weather/" + String(repeating: "a/", count: 600) + "x",
        "- acme/weather/.hidden", "- acme/weather/en/./control.json", "- acme\\weather/../x", "- acme/weather/en/contrôl.json",
    ])
    func manifestLinesHeraldCouldNotHaveWrittenAreRefused(_ line: String) {
        let bytes = Array("herald-manifest 2 complete\n@ - acme/weather\n\(line)\n".utf8)
        guard case .failure(let refusal) = SiteManifest.decode(bytes) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(refusal.description.contains("line 3"))
        #expect(SiteManifest.parse(Array("herald-manifest 1 complete\n\(line)\n".utf8)) == nil)
    }

    @Test func aForgedMarkerIsRefused() throws {
        try withSiteAndVictim { site, victim in
            let writer = SiteWriter(root: site)
            try writer.sync([try control()])
            try Data("acme/weather/../../../victim/precious.txt\n".utf8).write(to: site.appendingPathComponent(".herald-writing"))
            #expect(throws: SiteWriter.WriteError.self) { try writer.sync([try control()]) }
            #expect(victimIsWhole(victim))
        }
    }

    @Test func aManifestThatIsASymlinkIsRefused() throws {
        try withSiteAndVictim { site, victim in
            let writer = SiteWriter(root: site)
            try writer.sync([try control()])
            let manifest = site.appendingPathComponent(SiteManifest.fileName)
            let forged = victim.appendingPathComponent("forged")
            try FileManager.default.moveItem(at: manifest, to: forged)
            try FileManager.default.createSymbolicLink(at: manifest, withDestinationURL: forged)
            #expect(writer.intactState() == nil)
            #expect(throws: SiteWriter.WriteError.self) { try writer.sync([try control("de")]) }
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: manifest.path) == forged.path)
        }
    }

    // MARK: 2. Symlinks below the folder

    /// DIR/acme/weather/en/stories replaced with a symlink to an outside folder, the story
    /// archived: the run is refused before anything changes; nothing outside is deleted.
    @Test func aSymlinkedStoriesFolderIsNeverDeletedThrough() throws {
        try withSiteAndVictim { site, victim in
            let writer = SiteWriter(root: site)
            try writer.sync([try control(), try story("tour")])
            let stories = site.appendingPathComponent("acme/weather/en/stories")
            try FileManager.default.removeItem(at: stories)
            try FileManager.default.createSymbolicLink(at: stories, withDestinationURL: victim)
            let refusal = #expect(throws: SiteWriter.WriteError.self) { try writer.sync([try control("en", "{\"a\": {}}\n")]) }
            #expect(refusal?.description.contains("it is a symlink or not a folder") == true, "\(String(describing: refusal))")
            #expect(victimIsWhole(victim))
            #expect(try String(contentsOf: site.appendingPathComponent("acme/weather/en/control.json"), encoding: .utf8) == "{}\n")
        }
    }

    /// The walk itself, with the symlink planted after the plan was checked (a race): the
    /// removal refuses rather than follow it.
    @Test func removalNeverFollowsASymlinkPlantedAfterTheCheck() throws {
        try withSiteAndVictim { site, victim in
            try SiteWriter(root: site).sync([try control(), try story("tour")])
            let folder = SiteFolder(rootPath: site.standardizedFileURL.path)
            let files = [try control()]
            let plan = SitePlan(
                files: files, found: try folder.find(files), previous: folder.readManifest(), unfinished: nil, scope: nil)
            #expect(plan.remove == ["acme/weather/en/stories/tour.json"])
            try folder.checkRemovals(plan.remove)
            let stories = site.appendingPathComponent("acme/weather/en/stories")
            try FileManager.default.removeItem(at: stories)
            try FileManager.default.createSymbolicLink(at: stories, withDestinationURL: victim)
            #expect(throws: SiteWriter.WriteError.self) { try folder.carryOut(plan, manifest: plan.manifest.serialized()) }
            #expect(victimIsWhole(victim))
        }
    }

    /// Writes walk down by descriptor too: a symlink swapped in for a folder after the plan was
    /// made (a race) refuses the run at that folder; nothing is created, written or renamed
    /// through it. `acme/weather`: the new `de` folder's parent and the path of `en`'s files;
    /// `acme/weather/en`: the folder of a changed control.json.
    @Test(arguments: ["acme/weather", "acme/weather/en"])
    func writesNeverFollowASymlinkPlantedAfterThePlan(_ swapped: String) throws {
        try withSiteAndVictim { site, victim in
            try SiteWriter(root: site).sync([try control(), try story("tour")])
            let folder = SiteFolder(rootPath: site.standardizedFileURL.path)
            let files = [try control("en", "{\"a\": {}}\n"), try story("tour"), try control("de"), try story("tour", "de")]
            let plan = SitePlan(files: files, found: try folder.find(files), previous: folder.readManifest(), unfinished: nil, scope: nil)
            #expect(plan.newFolders.map(\.folder) == [site.standardizedFileURL.path + "/acme/weather/de"])
            #expect(plan.replace.map(\.file.path.description) == ["acme/weather/en/control.json"])
            let moved = root(of: site).appendingPathComponent("moved")
            try FileManager.default.moveItem(at: site.appendingPathComponent(swapped), to: moved)
            try FileManager.default.createSymbolicLink(at: site.appendingPathComponent(swapped), withDestinationURL: victim)
            let refusal = #expect(throws: SiteWriter.WriteError.self) { try folder.carryOut(plan, manifest: plan.manifest.serialized()) }
            #expect(refusal?.description.contains("it is a symlink or not a folder") == true, "\(String(describing: refusal))")
            #expect(victimIsWhole(victim), "\((try? FileManager.default.contentsOfDirectory(atPath: victim.path)) ?? [])")
        }
    }

    /// The folder holding `site` (where a test puts what it moves out of the way).
    func root(of site: URL) -> URL { site.deletingLastPathComponent() }

    /// A symlink where a new folder would go, planted before the run: refused, nothing written
    /// through it, and the run says why.
    @Test func aSymlinkWhereANewFolderGoesIsRefused() throws {
        try withSiteAndVictim { site, victim in
            let writer = SiteWriter(root: site)
            try writer.sync([try control()])
            try FileManager.default.createSymbolicLink(at: site.appendingPathComponent("acme/weather/de"), withDestinationURL: victim)
            let refusal = #expect(throws: SiteWriter.WriteError.self) { try writer.sync([try control(), try control("de"), try story("tour", "de")]) }
            #expect(refusal?.description.contains("acme/weather/de: it is a symlink or not a folder") == true, "\(String(describing: refusal))")
            #expect(victimIsWhole(victim))
        }
    }

    /// A symlink at a file's own place is not Herald's file: left alone, its target too.
    @Test func aSymlinkInPlaceOfAPublishedFileIsLeftAlone() throws {
        try withSiteAndVictim { site, victim in
            let writer = SiteWriter(root: site)
            try writer.sync([try control(), try story("tour")])
            let tour = site.appendingPathComponent("acme/weather/en/stories/tour.json")
            try FileManager.default.removeItem(at: tour)
            try FileManager.default.createSymbolicLink(at: tour, withDestinationURL: victim.appendingPathComponent("tour.json"))
            let outcome = try writer.sync([try control()])
            #expect(outcome.removed.isEmpty)
            #expect(victimIsWhole(victim))
        }
    }

    // MARK: 3. Nothing names a file that is not there

    /// The view's write fails (a directory sits where its temp file goes, as deterministic
    /// as a full disk): the control.json that would name it must not have been written.
    @Test func aFailedViewWriteLeavesControlJSONAsItWas() throws {
        try withTemporaryDirectory { site in
            let writer = SiteWriter(root: site)
            try writer.sync([try control(), try view("sale", "main", "<p>old</p>")])
            let blocker = site.appendingPathComponent("acme/weather/en/views/sale/.main.html.herald-\(getpid())")
            try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
            // control.json first: the writer, not the order asked, decides what goes first.
            #expect(throws: SiteWriter.WriteError.self) {
                try writer.sync([try control("en", "{\"sale\": {\"v\": 2}}\n"), try view("sale", "main", "<p>new</p>")])
            }
            #expect(try String(contentsOf: site.appendingPathComponent("acme/weather/en/control.json"), encoding: .utf8) == "{}\n")
        }
    }

    /// A view in a new folder (a new banner in an existing locale): its folder must be in
    /// place before the control.json naming it is rewritten.
    @Test func aNewViewFolderComesBeforeTheControlJSONNamingIt() throws {
        try withTemporaryDirectory { site in
            let writer = SiteWriter(root: site)
            try writer.sync([try control(), try view("sale", "main", "<p>sale</p>")])
            let blocker = site.appendingPathComponent("acme/weather/en/views/.fresh.herald-\(getpid())")
            try Data().write(to: blocker)
            #expect(throws: SiteWriter.WriteError.self) {
                try writer.sync([try control("en", "{\"fresh\": {}}\n"), try view("sale", "main", "<p>sale</p>"), try view("fresh", "main", "<p>x</p>")])
            }
            #expect(try String(contentsOf: site.appendingPathComponent("acme/weather/en/control.json"), encoding: .utf8) == "{}\n")
            try FileManager.default.removeItem(at: blocker)
            try writer.sync([try control("en", "{\"fresh\": {}}\n"), try view("sale", "main", "<p>sale</p>"), try view("fresh", "main", "<p>x</p>")])
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("acme/weather/en/views/fresh/main.html").path))
        }
    }

    @Test func namingFilesAreControlAndNotifications() throws {
        #expect(try control().path.namesOtherFiles)
        #expect(!(try story("tour").path.namesOtherFiles))
        #expect(!(try view("sale", "main", "").path.namesOtherFiles))
        #expect(SitePath(relative: "acme/weather/en/notifications.plist")?.namesOtherFiles == true)
    }

    // MARK: 4. A run killed while writing the marker

    @Test func aMarkerTempFileLeftByAKilledRunIsSwept() throws {
        try withTemporaryDirectory { site in
            let writer = SiteWriter(root: site)
            try writer.sync([try control()])
            let leftovers = ["..herald-writing.herald-4242", "..herald-manifest.herald-4243"]
            for name in leftovers { try Data("acme/weather/en/x.json\n".utf8).write(to: site.appendingPathComponent(name)) }
            // A leftover of someone else's naming is not Herald's: it stays.
            try Data().write(to: site.appendingPathComponent("..herald-writing.herald-12ab"))
            #expect(writer.intactState() != nil)  // no marker: the folder looks intact
            try writer.sync([try control()])  // nothing to change, and still swept
            let left = try FileManager.default.contentsOfDirectory(atPath: site.path).sorted()
            #expect(left == ["..herald-writing.herald-12ab", ".herald-manifest", ".herald-seal", "acme"])
        }
    }
}

/// A FIFO put where a published file or the manifest goes used to hold the run at its open
/// for ever (opening a FIFO to read waits for a writer). Files are opened non-blocking now:
/// the FIFO is no regular file, so it differs (and is replaced) or refuses the run.
@Suite struct SiteFIFOTests {
    /// `body` on another thread, given 20 s; a FIFO still blocking it then is opened for
    /// writing, which frees it, and the test fails.
    func finishes(unblocking fifo: URL, _ body: @escaping @Sendable () throws -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? body()
            done.signal()
        }
        if done.wait(timeout: .now() + 20) == .success { return true }
        let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        done.wait()
        return false
    }

    /// A site with one published file, then a FIFO in place of `replaced` (the file's path when nil).
    func withFIFO(replacing replaced: String? = nil, _ body: (_ site: URL, _ file: SiteFile, _ fifo: URL) throws -> Void) throws {
        try withTemporaryDirectory { root in
            let site = root.appendingPathComponent("site")
            let file = SiteFile(
                path: .controlFile(tenant: try Slug("acme"), app: try Slug("weather"), locale: try LocaleTag("en")), bytes: Array("{}\n".utf8))
            try SiteWriter(root: site).sync([file])
            let fifo = site.appendingPathComponent(replaced ?? file.path.description)
            try FileManager.default.removeItem(at: fifo)
            #expect(mkfifo(fifo.path, 0o644) == 0)
            try body(site, file, fifo)
        }
    }

    @Test func aFIFOWhereAFileGoesIsReplacedNotWaitedFor() throws {
        try withFIFO { site, file, target in
            #expect(finishes(unblocking: target) { try SiteWriter(root: site).sync([file]) })
            let now = try Data(contentsOf: target)
            #expect(now == Data("{}\n".utf8))  // a regular file again
        }
    }

    @Test func aFIFOWhereTheManifestGoesIsNotWaitedFor() throws {
        try withFIFO(replacing: SiteManifest.fileName) { site, file, manifest in
            #expect(finishes(unblocking: manifest) {
                _ = SiteWriter(root: site).intactState()
                _ = try? SiteWriter(root: site).sync([file])
            })
        }
    }
}
