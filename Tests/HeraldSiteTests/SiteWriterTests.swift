import Foundation
import HeraldCore
import HeraldPublish
import HeraldTestSupport
import Testing

@testable import HeraldSite

@Suite struct SiteWriterTests {
    func file(_ app: String, _ locale: String, _ text: String) throws -> SiteFile {
        SiteFile(path: .controlFile(tenant: try Slug("acme"), app: try Slug(app), locale: try LocaleTag(locale)), bytes: Array(text.utf8))
    }

    func modificationDate(_ url: URL) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
    }

    @Test func writesOnlyWhatChangedAndLeavesMtimesAlone() throws {
        try withTemporaryDirectory { root in
            let writer = SiteWriter(root: root)
            let first = try writer.sync([try file("weather", "en", "{}\n"), try file("weather", "de", "{}\n")])
            #expect(first.written.count == 2)
            let en = root.appendingPathComponent("acme/weather/en/control.json")
            let de = root.appendingPathComponent("acme/weather/de/control.json")
            // An mtime long past: a rewrite, however soon, would replace it with the current time.
            let longAgo = Date(timeIntervalSince1970: 1_000_000_000)
            try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: en.path)
            let before = try modificationDate(en)
            #expect(before == longAgo)
            let again = try writer.sync([try file("weather", "en", "{}\n"), try file("weather", "de", "{}\n")])
            #expect(again.written.isEmpty)
            #expect(again.unchanged == 2)
            #expect(try modificationDate(en) == before)
            let changed = try writer.sync([try file("weather", "en", "{}\n"), try file("weather", "de", "{\"x\": {}}\n")])
            #expect(changed.written == ["acme/weather/de/control.json"])
            #expect(try modificationDate(en) == before)
            #expect(try String(contentsOf: de, encoding: .utf8) == "{\"x\": {}}\n")
            #expect(changed.manifest.files["acme/weather/de/control.json"] == SHA256.hex(Array("{\"x\": {}}\n".utf8)))
            // No temp files left behind.
            let leftovers = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.contains(".herald-") && $0 != SiteManifest.fileName && $0 != FolderSeal.fileName }
            #expect(leftovers.isEmpty)
        }
    }

    @Test func removesOnlyFilesItPublished() throws {
        try withTemporaryDirectory { root in
            let writer = SiteWriter(root: root)
            try writer.sync([try file("weather", "en", "{}\n"), try file("radio", "en", "{}\n")])
            let foreign = root.appendingPathComponent("acme/weather/en/robots.txt")
            try Data("keep me".utf8).write(to: foreign)
            let topForeign = root.appendingPathComponent("index.html")
            try Data("mine".utf8).write(to: topForeign)
            let outcome = try writer.sync([try file("weather", "en", "{}\n")])
            #expect(outcome.removed == ["acme/radio/en/control.json"])
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("acme/radio").path))  // empty folders go too
            #expect(FileManager.default.fileExists(atPath: foreign.path))
            #expect(FileManager.default.fileExists(atPath: topForeign.path))
        }
    }

    @Test func aScopedPublishLeavesTheRestAlone() throws {
        try withTemporaryDirectory { root in
            let writer = SiteWriter(root: root)
            try writer.sync([try file("weather", "en", "{}\n"), try file("radio", "en", "{}\n")])
            let outcome = try writer.sync([try file("weather", "en", "{\"a\": {}}\n")], scope: [["acme", "weather"]])
            #expect(outcome.removed.isEmpty)
            #expect(outcome.manifest.files.keys.sorted() == ["acme/radio/en/control.json", "acme/weather/en/control.json"])
        }
    }

    @Test func neverWritesThroughASymlink() throws {
        try withTemporaryDirectory { root in
            let outside = root.appendingPathComponent("outside")
            let site = root.appendingPathComponent("site")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: site.appendingPathComponent("acme"), withDestinationURL: outside)
            #expect(throws: SiteWriter.WriteError.self) { try SiteWriter(root: site).sync([try file("weather", "en", "{}\n")]) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        }
    }
}

@Suite struct InterruptedRunTests {
    /// A run that died part-way leaves its marker (with the new paths it meant to write) and
    /// maybe a temp file and some of those files; the next run sweeps the temp files, removes
    /// what is no longer published and finishes the site.
    @Test func theNextRunCleansUp() throws {
        try withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("acme/weather/en")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let stale = directory.appendingPathComponent(".control.json.herald-12345")
            try Data("{\"half".utf8).write(to: stale)
            let orphan = directory.appendingPathComponent("notifications.plist")  // written by the dead run, not wanted now
            try Data("<plist/>".utf8).write(to: orphan)
            try Data("acme/weather/en/control.json\nacme/weather/en/notifications.plist\n".utf8)
                .write(to: root.appendingPathComponent(".herald-writing"))
            #expect(SiteWriter(root: root).intactState() == nil)
            let file = SiteFile(path: .controlFile(tenant: try Slug("acme"), app: try Slug("weather"), locale: try LocaleTag("en")), bytes: Array("{}\n".utf8))
            let outcome = try SiteWriter(root: root).sync([file])
            #expect(outcome.written == ["acme/weather/en/control.json"])
            #expect(outcome.removed == ["acme/weather/en/notifications.plist"])
            #expect(!FileManager.default.fileExists(atPath: stale.path))
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(".herald-writing").path))
            #expect(SiteWriter(root: root).intactState()?.manifest.files.keys.sorted() == ["acme/weather/en/control.json"])
        }
    }

    /// A new app (or locale) folder is filled under a hidden name and renamed into place: a
    /// dead run can leave such a half-filled folder; the next run removes it and makes the
    /// folder again, whole.
    @Test func aNewFolderAppearsWholeAndAHalfFilledOneIsSwept() throws {
        func control(_ locale: String) throws -> SiteFile {
            SiteFile(path: .controlFile(tenant: try Slug("acme"), app: try Slug("weather"), locale: try LocaleTag(locale)), bytes: Array("{}\n".utf8))
        }
        try withTemporaryDirectory { root in
            let hidden = root.appendingPathComponent("acme/.weather.herald-12345/en")
            try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: true)
            try Data("{\"half".utf8).write(to: hidden.appendingPathComponent("control.json"))
            try Data("acme/weather/en/control.json\n".utf8).write(to: root.appendingPathComponent(".herald-writing"))
            let outcome = try SiteWriter(root: root).sync([try control("en"), try control("de")])
            #expect(outcome.written.sorted() == ["acme/weather/de/control.json", "acme/weather/en/control.json"])
            let all = try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted()
            #expect(
                all == [
                    ".herald-manifest", ".herald-seal", "acme", "acme/weather", "acme/weather/de", "acme/weather/de/control.json", "acme/weather/en",
                    "acme/weather/en/control.json",
                ])
            // A new locale in an existing app: its folder is made the same way, the rest untouched.
            let more = try SiteWriter(root: root).sync([
                try control("en"), try control("de"), try control("pt-BR"),
            ])
            #expect(more.written == ["acme/weather/pt-BR/control.json"])
            #expect(try String(contentsOf: root.appendingPathComponent("acme/weather/pt-BR/control.json"), encoding: .utf8) == "{}\n")
            #expect(try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.contains(".herald-") && $0 != ".herald-manifest" && $0 != ".herald-seal" }.isEmpty)
        }
    }

    @Test func aRunThatChangesOneAppRehashesOnlyThatAppsShard() throws {
        try withTemporaryDirectory { root in
            let tenant = try Slug("acme")
            func control(_ app: String, _ body: String) throws -> SiteFile {
                SiteFile(path: .controlFile(tenant: tenant, app: try Slug(app), locale: try LocaleTag("en")), bytes: Array(body.utf8))
            }
            let writer = SiteWriter(root: root)
            let first = try writer.sync([try control("weather", "{}\n"), try control("radio", "{}\n")])
            let radioShard = first.manifest.apps["acme/radio"]?.shardDigest
            #expect(radioShard != nil)
            let intact = try #require(writer.intactState())
            #expect(intact.manifest == first.manifest)
            // Incremental: only weather is in scope; radio's shard digest is carried over.
            let second = try writer.sync([try control("weather", "{\"a\": {}}\n")], scope: [["acme", "weather"]], previous: intact.manifest)
            #expect(second.written == ["acme/weather/en/control.json"])
            #expect(second.archive?.shards.count == 1)
            #expect(second.manifest.apps["acme/radio"]?.shardDigest == radioShard)
            #expect(second.manifest.files.keys.sorted() == ["acme/radio/en/control.json", "acme/weather/en/control.json"])
            #expect(writer.readManifest() == second.manifest)
        }
    }
}

/// How the writer compares what a run would write with what the folder holds.
@Suite struct SiteComparisonTests {
    /// Files are read for comparison into one buffer per worker, reused from file to file:
    /// each is still compared by its own bytes, whatever the sizes before it (a large file
    /// grows the buffer; a smaller one after it must not pass on what the larger left there).
    @Test func everyFileIsComparedByItsOwnBytes() throws {
        try withTemporaryDirectory { root in
            let writer = SiteWriter(root: root)
            let sizes = [10, 300_000, 10, 150_000, 300_000, 64 * 1024, 10]
            let files = try sizes.enumerated().map { index, size in
                SiteFile(
                    path: .storyFile(tenant: try Slug("acme"), app: try Slug("weather"), locale: try LocaleTag("en"), campaign: try Slug("s\(index)")),
                    bytes: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) })
            }
            #expect(try writer.sync(files).written.count == files.count)
            #expect(try writer.sync(files).unchanged == files.count)
            func onDisk(_ index: Int) -> URL { root.appendingPathComponent(files[index].path.description) }
            // The large file's last byte, a small file after the largest, and a file holding the
            // bytes the file before it holds (same size) all differ; nothing else does.
            var large = files[4].bytes
            large[large.count - 1] ^= 1
            try Data(large).write(to: onDisk(4))
            var small = files[6].bytes
            small[0] ^= 1
            try Data(small).write(to: onDisk(6))
            try Data(files[0].bytes).write(to: onDisk(2))
            #expect(files[0].bytes.count == files[2].bytes.count && files[0].bytes != files[2].bytes)
            let outcome = try writer.sync(files)
            #expect(outcome.written == [2, 4, 6].map { files[$0].path.description })
            #expect(outcome.unchanged == files.count - 3)
            for index in files.indices { #expect(try Data(contentsOf: onDisk(index)) == Data(files[index].bytes)) }
        }
    }

    /// Work spread over the cores comes back in order, and the first error in that order is
    /// the one thrown, however the runs were handed out.
    @Test func parallelWorkKeepsItsOrderAndItsFirstError() throws {
        struct Failure: Error, Equatable { let item: Int }
        let items = Array(0..<20_000)
        #expect(try SiteFolder.inParallel(items, state: { 0 }) { item, seen in
            seen += 1
            return item * 2
        } == items.map { $0 * 2 })
        #expect(throws: Failure(item: 5_000)) {
            try SiteFolder.inParallel(items, state: {}) { item, _ in
                if item == 5_000 || item == 15_000 { throw Failure(item: item) }
                return item
            }
        }
        #expect(try SiteFolder.inParallel([1, 2, 3], state: {}) { item, _ in item } == [1, 2, 3])
        #expect(try SiteFolder.inParallel([Int](), state: {}) { item, _ in item }.isEmpty)
    }
}

@Suite struct SiteDirectoriesTests {
    /// Descriptors this process has open now.
    func openDescriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    /// A pass over thousands of folders keeps open only those of the path it looked up last:
    /// one descriptor per folder would pass the usual limit of 1,024 open files (a run over a
    /// 1,000-app site failed with "Too many open files").
    @Test func onlyTheFoldersOfTheLastPathStayOpen() throws {
        try withTemporaryDirectory { root in
            let folders = (0..<1_500).map { "acme/app-\($0 / 3)/\(["de", "en", "fr"][$0 % 3])" }
            for folder in folders {
                try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            let rootDescriptor = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            try #require(rootDescriptor >= 0)
            defer { close(rootDescriptor) }
            let directories = SiteDirectories(root: rootDescriptor, rootPath: root.path)
            let before = try openDescriptors()
            for folder in folders {
                guard case .found(let descriptor) = try directories.folder(folder[...]) else {
                    Issue.record("\(folder) not found")
                    return
                }
                // The descriptor is the folder's own: a file made through it appears there.
                if folder.hasSuffix("/fr") {
                    let file = openat(descriptor, "marker", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                    #expect(file >= 0)
                    close(file)
                }
            }
            // Other tests open files meanwhile: far fewer than one per folder, though.
            #expect(try openDescriptors() - before < 200)
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("acme/app-499/fr/marker").path))
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("acme/app-0/fr/marker").path))
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("acme/app-0/en/marker").path))
            guard case .missing(let depth) = try directories.folder("acme/app-7/it") else {
                Issue.record("a missing folder was found")
                return
            }
            #expect(depth == 2)
        }
    }
}
