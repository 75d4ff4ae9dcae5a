import Foundation
import HeraldCore
import HeraldPublish
import HeraldTestSupport
import Testing

@testable import HeraldSite

/// The seal a run leaves beside the manifest: the next run trusts the folder on one look per
/// folder, and anything that removes or replaces a listed file, or rewrites the manifest,
/// sends it back to checking every file.
@Suite struct FolderSealTests {
    func file(_ app: String, _ locale: String, _ text: String = "{}\n") throws -> SiteFile {
        SiteFile(path: .controlFile(tenant: try Slug("acme"), app: try Slug(app), locale: try LocaleTag(locale)), bytes: Array(text.utf8))
    }

    func story(_ app: String, _ locale: String, _ name: String) throws -> SiteFile {
        SiteFile(
            path: .storyFile(tenant: try Slug("acme"), app: try Slug(app), locale: try LocaleTag(locale), campaign: try Slug(name)),
            bytes: Array("{\"story\": \"\(name)\"}\n".utf8))
    }

    /// Two apps, two locales, stories in one: five folders that hold files.
    func site() throws -> [SiteFile] {
        [
            try file("radio", "de"), try file("radio", "en"), try file("weather", "de"), try file("weather", "en"),
            try story("weather", "en", "tour"), try story("weather", "en", "sale"),
        ]
    }

    func seal(_ root: URL) throws -> FolderSeal {
        try #require(FolderSeal.parse(Array(try Data(contentsOf: root.appendingPathComponent(FolderSeal.fileName)))))
    }

    func holds(_ seal: FolderSeal, _ root: URL) throws -> Bool {
        let descriptor = open(root.path, O_RDONLY | O_DIRECTORY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        return seal.holds(root: descriptor)
    }

    /// The file as its comment describes it, checked by hand: a header line (the manifest's
    /// stamp, size and file count), then a line per folder, sorted by path; anything else is
    /// not a seal (the folder is then checked file by file).
    @Test func theSealFileIsExactlyItsLines() throws {
        let seal = FolderSeal(
            manifest: .init(device: 2049, inode: 18_446_744_073_709_551_615, changedSeconds: 1_780_272_000, changedNanoseconds: 5),
            manifestSize: 3_725_183, fileCount: 36_000,
            folders: [
                "acme/weather/en/stories": .init(device: 2049, inode: 7, changedSeconds: 1_780_272_001, changedNanoseconds: 999_999_999),
                "acme/radio/de": .init(device: 0, inode: 12, changedSeconds: 0, changedNanoseconds: 0),
            ])
        let text = """
            herald-seal 1 2049 18446744073709551615 1780272000.5 3725183 36000
            0 12 0.0 acme/radio/de
            2049 7 1780272001.999999999 acme/weather/en/stories

            """
        #expect(String(decoding: seal.serialized, as: UTF8.self) == text)
        #expect(FolderSeal.parse(Array(text.utf8)) == seal)
        for broken in [
            "", "herald-seal 2 1 2 3.4 5 6\n", "herald-seal 1 1 2 3.4 5 6", "herald-seal 1 1 2 3 5 6\n",
            "herald-seal 1 1 2 3.4 5 6\n7 8 9.0 acme/radio/de",  // a line without its newline
            "herald-seal 1 1 2 3.4 5 6\n7 8 9.0 ../etc\n", "herald-seal 1 1 2 3.4 5 6\n7 8 9.0 /etc\n",
            "herald-seal 1 1 2 3.4 5 6\n7  8 9.0 acme/radio/de\n", "herald-seal 1 1 2 3.4 5 6\n\n",
            "herald-seal 1 18446744073709551616 2 3.4 5 6\n", "herald-seal 1 1 2 -3.4 5 6\n",
        ] {
            #expect(FolderSeal.parse(Array(broken.utf8)) == nil, "\(broken.debugDescription)")
        }
    }

    /// A seal made over line by line for a run that changed some apps is, byte for byte, the
    /// seal made whole from the same stamps: changed apps' lines replaced (at the start, in the
    /// middle, at the end, an app's own folder too), a removed app's dropped, a new app's added.
    @Test func aSealMadeOverLineByLineIsTheSealMadeWhole() throws {
        func stamp(_ n: Int) -> FolderSeal.Stamp { .init(device: 2049, inode: UInt64(n), changedSeconds: 1_780_272_000 + Int64(n), changedNanoseconds: Int64(n)) }
        var folders: [String: FolderSeal.Stamp] = [:]
        for (number, app) in ["acme/a", "acme/app-1", "acme/app-10", "acme/app-2", "acme/zz"].enumerated() {
            for (index, folder) in ["\(app)/de", "\(app)/en", "\(app)/en/stories"].enumerated() { folders[folder] = stamp(number * 10 + index) }
        }
        folders["acme/app-1"] = stamp(99)  // an app's own folder holds a file
        let old = FolderSeal(manifest: stamp(1), manifestSize: 100, fileCount: 20, folders: folders)
        let identity = stamp(500)
        for (changed, fresh) in [
            (["acme/app-1"], ["acme/app-1/de": stamp(600), "acme/app-1/en": stamp(601)]),
            (["acme/a", "acme/zz"], ["acme/a/de": stamp(610), "acme/zz/fr": stamp(611), "acme/zz/en/stories": stamp(612)]),
            (["acme/app-2"], [:]),  // removed
            (["acme/app-3", "acme/zzz"], ["acme/app-3/de": stamp(620), "acme/zzz/en": stamp(621)]),  // new
        ] as [([String], [String: FolderSeal.Stamp])] {
            var whole = folders.filter { folder, _ in !changed.contains { folder == $0 || folder.hasPrefix($0 + "/") } }
            whole.merge(fresh) { $1 }
            let expected = FolderSeal(manifest: identity, manifestSize: 200, fileCount: 30, folders: whole).serialized
            let patched = FolderSeal.patched(
                old.serialized, manifest: identity, size: 200, fileCount: 30, changedApps: Set(changed), stamps: fresh)
            #expect(patched.map { String(decoding: $0, as: UTF8.self) } == String(decoding: expected, as: UTF8.self), "\(changed)")
        }
        // Lines out of order are no seal `serialized` wrote: none is made.
        let text = String(decoding: old.serialized, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let swapped = ([text[0], text[2], text[1]] + text[3...]).joined(separator: "\n")
        #expect(FolderSeal.patched(Array(swapped.utf8), manifest: identity, size: 1, fileCount: 1, changedApps: [], stamps: [:]) == nil)
    }

    @Test func aRunSealsEveryFolderThatHoldsAFileAndTheNextTrustsIt() throws {
        try withTemporaryDirectory { root in
            let writer = SiteWriter(root: root)
            let files = try site()
            try writer.sync(files)
            let seal = try seal(root)
            #expect(seal.folders.keys.sorted() == ["acme/radio/de", "acme/radio/en", "acme/weather/de", "acme/weather/en", "acme/weather/en/stories"])
            #expect(seal.fileCount == files.count)
            #expect(try holds(seal, root))
            let intact = try #require(writer.intactFolder())
            #expect(intact.sealKept && intact.manifest == nil)  // trusted on the seal: the manifest's file lines not read
            #expect(intact.fileCount == files.count)
            #expect(intact.digest == writer.readManifest().archiveDigest)
            // Parsed when a run needs it, the same manifest.
            #expect(try writer.manifest(of: intact) == writer.readManifest())
            // The seal round-trips through its file.
            #expect(FolderSeal.parse(seal.serialized) == seal)
        }
    }

    /// Whatever removes or replaces a listed file changes its folder's stamp: the seal no
    /// longer holds, and the folder is checked file by file (which finds it not intact).
    @Test(arguments: ["deleted", "symlink", "fifo", "folder copied back", "folder removed"])
    func aFileRemovedOrReplacedBreaksTheSeal(_ how: String) throws {
        try withTemporaryDirectory { root in
            let writer = SiteWriter(root: root)
            try writer.sync(try site())
            let seal = try seal(root)
            let stories = root.appendingPathComponent("acme/weather/en/stories")
            let target = stories.appendingPathComponent("tour.json")
            switch how {
            case "deleted":
                try FileManager.default.removeItem(at: target)
            case "symlink":
                try FileManager.default.removeItem(at: target)
                try FileManager.default.createSymbolicLink(at: target, withDestinationURL: stories.appendingPathComponent("sale.json"))
            case "fifo":
                try FileManager.default.removeItem(at: target)
                #expect(mkfifo(target.path, 0o644) == 0)
            case "folder copied back":
                // Same names, same bytes, same mtimes, one file fewer: another folder (inode) all the same.
                let copy = root.appendingPathComponent("copy")
                try FileManager.default.copyItem(at: stories, to: copy)
                try FileManager.default.removeItem(at: copy.appendingPathComponent("tour.json"))
                try FileManager.default.removeItem(at: stories)
                try FileManager.default.moveItem(at: copy, to: stories)
            default:
                try FileManager.default.removeItem(at: stories)
            }
            #expect(try !holds(seal, root))
            #expect(writer.intactFolder() == nil)
        }
    }

    /// A manifest written again, even byte for byte, is not the one the seal was made for: the
    /// folder is checked file by file, found intact, and that check makes a new seal.
    @Test func aManifestWrittenAgainIsCheckedFileByFile() throws {
        try withTemporaryDirectory { root in
            let writer = SiteWriter(root: root)
            try writer.sync(try site())
            let manifest = root.appendingPathComponent(SiteManifest.fileName)
            let bytes = try Data(contentsOf: manifest)
            try FileManager.default.removeItem(at: manifest)
            try bytes.write(to: manifest)
            let intact = try #require(writer.intactFolder())
            #expect(!intact.sealKept && intact.manifest != nil)
            #expect(intact.seal?.folders.count == 5)
            // Kept (a run that changed nothing does this), the next check trusts it again.
            writer.keepSeal(intact)
            #expect(writer.intactFolder()?.sealKept == true)
        }
    }

    @Test(arguments: ["garbage", "empty", "another folder's", "a stamp changed", "no last newline"])
    func aSealThatIsNotThisFoldersIsIgnored(_ how: String) throws {
        try withTemporaryDirectory { root in
            let writer = SiteWriter(root: root)
            try writer.sync(try site())
            let sealURL = root.appendingPathComponent(FolderSeal.fileName)
            switch how {
            case "garbage": try Data("herald-seal 1 x\n../../etc 1 2 3.4\n".utf8).write(to: sealURL)
            case "empty": try Data().write(to: sealURL)
            case "a stamp changed":
                var lines = try String(contentsOf: sealURL, encoding: .utf8).split(separator: "\n").map(String.init)
                var words = lines[1].split(separator: " ").map(String.init)
                words[1] = "1"  // another inode
                lines[1] = words.joined(separator: " ")
                try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: sealURL)
            case "no last newline":
                try Data(try Data(contentsOf: sealURL).dropLast()).write(to: sealURL)
            default:
                let other = root.appendingPathComponent("other")
                try SiteWriter(root: other).sync(try site())
                try FileManager.default.removeItem(at: sealURL)
                try FileManager.default.copyItem(at: other.appendingPathComponent(FolderSeal.fileName), to: sealURL)
            }
            let intact = try #require(writer.intactFolder())
            #expect(!intact.sealKept)
            // With a file gone, the file-by-file check finds it.
            try FileManager.default.removeItem(at: root.appendingPathComponent("acme/radio/de/control.json"))
            #expect(writer.intactFolder() == nil)
        }
    }

    /// A run that changes one app stamps that app's folders again and carries the others'
    /// stamps over from the check it started with; the result still holds.
    @Test func aRunThatChangesOneAppStampsOnlyThatAppsFolders() throws {
        try withTemporaryDirectory { root in
            let writer = SiteWriter(root: root)
            try writer.sync(try site())
            let before = try seal(root)
            let intact = try #require(writer.intactFolder())
            let changed = [try file("radio", "de", "{\"x\": {}}\n"), try file("radio", "en")]
            let outcome = try writer.sync(changed, scope: [["acme", "radio"]], previous: try writer.manifest(of: intact), intact: intact)
            #expect(outcome.written == ["acme/radio/de/control.json"])
            let after = try seal(root)
            #expect(after.manifest != before.manifest)
            for (folder, stamp) in before.folders where folder.hasPrefix("acme/weather/") {
                #expect(after.folders[folder] == stamp, "\(folder)")
            }
            #expect(after.folders["acme/radio/de"] != before.folders["acme/radio/de"])
            #expect(try holds(after, root))
            #expect(writer.intactFolder()?.sealKept == true)
        }
    }

    /// A watcher's memory: the parsed manifest is used while the manifest file and every sealed
    /// folder are as the watcher left them, and forgotten as soon as either changes under it.
    @Test func aWatchersMemoryIsUsedOnlyWhileTheFolderIsAsItLeftIt() throws {
        try withTemporaryDirectory { root in
            let memory = FolderMemory()
            let watcher = SiteWriter(root: root, memory: memory)
            try watcher.sync(try site())
            #expect(!memory.isEmpty)
            let remembered = try #require(watcher.intactFolder())
            #expect(remembered.sealKept && remembered.manifest == watcher.readManifest())

            // Another writer (a cron publish) changes the folder: the manifest file is another.
            let cron = SiteWriter(root: root)
            try cron.sync(try site().dropLast())
            let afterCron = try #require(watcher.intactFolder())
            #expect(afterCron.manifest == nil)  // trusted on the cron run's seal, not on the memory
            #expect(try watcher.manifest(of: afterCron) == cron.readManifest())
            #expect(try watcher.manifest(of: afterCron).files["acme/weather/en/stories/sale.json"] == nil)

            // A file deleted by hand: the remembered state no longer holds.
            try watcher.sync(try site(), previous: try watcher.manifest(of: afterCron), intact: afterCron)
            #expect(watcher.intactFolder()?.manifest != nil)
            try FileManager.default.removeItem(at: root.appendingPathComponent("acme/weather/de/control.json"))
            #expect(watcher.intactFolder() == nil)
            // The next run compares every file and puts it back.
            let repaired = try watcher.sync(try site())
            #expect(repaired.written == ["acme/weather/de/control.json"])
            #expect(watcher.intactFolder()?.sealKept == true)
        }
    }

    /// A refusal is a kind of error, not a wording: the watcher gives up on it and retries anything else.
    @Test func aRefusedFolderIsARefusalAndAFailedWriteIsNot() throws {
        try withTemporaryDirectory { root in
            let site = root.appendingPathComponent("site")
            try Data("not a folder".utf8).write(to: site)
            let refusal = #expect(throws: SiteWriter.WriteError.self) { try SiteWriter(root: site).sync(try self.site()) }
            #expect(refusal?.kind == .refused && refusal?.isRefusal == true)
            let failed = SiteWriter.WriteError(description: "cannot write x: No space left on device")
            #expect(failed.kind == .failed && !failed.isRefusal)
        }
    }
}
