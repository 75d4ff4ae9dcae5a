import Dispatch
import HeraldCore
import Testing

@testable import HeraldPublish

/// A manifest decoded with its app groups deferred (a sealed folder's, in a run that changed a
/// few apps): the same manifest as a whole decode gives, whatever is asked of it, and each
/// app's files read only when asked for.
@Suite struct DeferredManifestTests {
    static let bytes = Array(ManifestRunsTests.text().utf8)

    @Test func itIsTheManifestAWholeDecodeGives() throws {
        let whole = try SiteManifest.decode(Self.bytes).get()
        var deferred = try SiteManifest.decodeDeferringGroups(Self.bytes).get()
        #expect(deferred.fileCount == 720 && deferred.apps.count == 60)
        #expect(deferred.owner == whole.owner && deferred.complete == whole.complete && deferred.archiveDigest == whole.archiveDigest)
        for (folder, app) in whole.apps {
            let other = try #require(deferred.apps[folder])
            #expect(other.count == app.count && other.shardDigest == app.shardDigest)
            #expect(other.files == app.files, "\(folder)")
        }
        #expect(deferred == whole)
        // Written again untouched, it is the file as it was.
        #expect(deferred.serializing() == Self.bytes)
    }

    @Test func changingOneAppWritesWhatTheWholeDecodeWouldWrite() throws {
        var whole = try SiteManifest.decode(Self.bytes).get()
        var deferred = try SiteManifest.decodeDeferringGroups(Self.bytes).get()
        let untouched = try #require(deferred.apps["acme/app-7"])
        whole["acme/app-3/en/control.json"] = String(repeating: "c", count: 64)
        deferred["acme/app-3/en/control.json"] = String(repeating: "c", count: 64)
        whole["acme/app-5/de/stories/tour.json"] = nil
        deferred["acme/app-5/de/stories/tour.json"] = nil
        #expect(deferred.serializing() == whole.serializing())
        #expect(deferred.fileCount == 719)
        // A copy taken before the change still has the files it had (value semantics).
        #expect(untouched.files == (try SiteManifest.decode(Self.bytes).get()).apps["acme/app-7"]?.files)
        var copy = untouched
        copy.files["acme/app-7/en/extra.json"] = ""
        #expect(copy.count == 13 && untouched.count == 12)
    }

    @Test func appsCarriedOverAreTheSameWithoutBeingRead() throws {
        let deferred = try SiteManifest.decodeDeferringGroups(Self.bytes).get()
        let app = try #require(deferred.apps["acme/app-1"])
        let carried = app
        #expect(carried.sameFiles(as: app))
        var changed = app
        changed.files["acme/app-1/en/control.json"] = String(repeating: "d", count: 64)
        #expect(!changed.sameFiles(as: app))
    }

    @Test func manyThreadsMayReadOneDeferredAppAtOnce() throws {
        let deferred = try SiteManifest.decodeDeferringGroups(Self.bytes).get()
        let app = try #require(deferred.apps["acme/app-42"])
        let counts = ConcurrentSlots<Int>(count: 64)
        DispatchQueue.concurrentPerform(iterations: 64) { counts[$0] = app.files.count }
        #expect(counts.values.allSatisfy { $0 == 12 })
    }

    @Test func whatIsNotPlainlyGroupsGoesToTheWholeDecode() {
        let text = ManifestRunsTests.text()
        for odd in [
            text.replacingOccurrences(of: "herald-manifest 2", with: "herald-manifest 1"),  // no groups
            text.replacingOccurrences(of: "site\n@ - acme/app-0\n", with: "site\nstray line\n@ - acme/app-0\n"),
            text.replacingOccurrences(of: "@ - acme/app-1\n", with: "@ - acme/../app-1\n"),
            "not a manifest",
        ] {
            let bytes = Array(odd.utf8)
            func outcome(_ result: Result<SiteManifest, SiteManifest.Refusal>) -> String {
                switch result {
                case .success(let manifest): "\(manifest.fileCount) files"
                case .failure(let refusal): refusal.description
                }
            }
            #expect(outcome(SiteManifest.decodeDeferringGroups(bytes)) == outcome(SiteManifest.decode(bytes)), "\(odd.prefix(120))")
        }
    }
}
